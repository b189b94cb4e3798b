# gdb script for tests/sdt/sweep.sh: one breakpoint per probe named in
# $probes ("provider:name ..."); at each hit, writes "NAME ARG..." to
# $outfile, integers as gdb types them from the note's size and sign,
# probes named string* as the strings they point to. gdb sets each
# probe's semaphore while its breakpoint is in, so guarded probes fire.
import gdb

out = open(gdb.convenience_variable("outfile").string(), "w")


class Probe(gdb.Breakpoint):
    def __init__(self, spec):
        super().__init__("-probe-stap " + spec)
        self.probe = spec.split(":")[1]

    def stop(self):
        words = [self.probe]
        argc = int(gdb.parse_and_eval("$_probe_argc"))
        for i in range(argc):
            value = gdb.parse_and_eval("$_probe_arg%d" % i)
            if self.probe.startswith("string"):
                char_p = gdb.lookup_type("char").pointer()
                words.append(value.cast(char_p).string())
            else:
                words.append(str(int(value)))
        out.write(" ".join(words) + "\n")
        out.flush()
        return False


for spec in gdb.convenience_variable("probes").string().split():
    Probe(spec)
