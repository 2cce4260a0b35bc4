# Import timing on the reference engine (tobymao/18xx): reads lines "EXPORT_PATH TIMED" on stdin and
# loads that export once with Engine::Game.load (TIMED 0: the untimed warm-up; 1: timed, after a
# GC.start), and prints one JSON line per request: the load's CPU time in ms, the number of actions
# and the game's result. Each export is parsed once and kept for the later passes.
# Run by tools/refspeed (ruby -I tools/refspeed/shim -I REFERENCE/lib reference_worker.rb).
$stdout.sync = true
require 'json'
require 'engine'
LOGGER.level = ::Logger::FATAL # its default debug log to stdout more than doubles its time

warn 'ready'
exports = {}
$stdin.each_line do |line|
  path, timed = line.split
  export = (exports[path] ||= JSON.parse(File.read(path)))
  game = nil
  GC.start
  started = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
  game = Engine::Game.load(export)
  took = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - started
  puts JSON.generate({ ms: timed == '1' ? took * 1000 : nil, actions: export['actions'].size,
                       result: game.result.transform_keys(&:to_s) })
end
