# A small stand-in for the require_all gem, which the reference engine uses and which cannot be
# installed from the registries reachable here: require_rel requires every .rb file under the given
# paths (relative to the caller), of the titles in REFSPEED_TITLES only, requiring again the files
# that failed on a constant not defined yet until none is left.
TITLES = (ENV['REFSPEED_TITLES'] || 'g_1822,g_1847_ae,g_1856,g_1858,g_1858_india').split(',')

def require_rel(*paths)
  base = File.dirname(caller_locations(1, 1)[0].absolute_path)
  files = paths.flatten.flat_map do |path|
    full = File.expand_path(path, base)
    next [full.end_with?('.rb') ? full : "#{full}.rb"] unless File.directory?(full)

    Dir.glob(File.join(full, '**', '*.rb')).sort.select do |file|
      title = file[%r{/game/(g_[a-z0-9_]+)/}, 1]
      title.nil? || TITLES.include?(title)
    end
  end
  until files.empty?
    failed = files.select do |file|
      require file
      false
    rescue NameError
      true
    end
    raise LoadError, "cannot require #{failed.first}" if failed.size == files.size

    files = failed
  end
end
