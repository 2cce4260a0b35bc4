# Import timing on the reference engine (tobymao/18xx): reads lines "EXPORT_PATH ROUNDS" on stdin,
# loads the export with Engine::Game.load once to warm up, then ROUNDS times, and prints one JSON line
# per export: the best CPU time in ms, the number of actions and the game's result.
# Run by tools/refspeed (ruby -I tools/refspeed/shim -I REFERENCE/lib reference_worker.rb).
$stdout.sync = true
require 'json'
require 'engine'
LOGGER.level = ::Logger::FATAL # its default debug log to stdout more than doubles its time

warn 'ready'
$stdin.each_line do |line|
  path, rounds = line.split
  export = JSON.parse(File.read(path))
  game = Engine::Game.load(export)
  best = Float::INFINITY
  rounds.to_i.times do
    GC.start
    started = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
    game = Engine::Game.load(export)
    best = [best, Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - started].min
  end
  puts JSON.generate({ ms: best * 1000, actions: export['actions'].size,
                       result: game.result.transform_keys(&:to_s) })
end
