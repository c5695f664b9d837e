"""Progress of long benchmark runs, as the `dace` CLI shows it (docs/jit.md "Progress"):
"[k/N] what" on stderr, rewritten in place on a terminal; nothing off a terminal, with
TERM=dumb or with --quiet; --progress gives plain lines wherever stderr goes. stdout (the
tables and JSON the scripts print) never carries it."""
import os
import sys


def add_arguments(parser):
    parser.add_argument("--quiet", action="store_true", help="never show progress")
    parser.add_argument("--progress", action="store_true",
                        help="show progress on stderr even when it is not a terminal (plain lines)")


class Progress:
    def __init__(self, total, args=None, stream=None):
        self.stream = stream or sys.stderr
        terminal = self.stream.isatty() and os.environ.get("TERM", "") not in ("", "dumb")
        quiet = bool(args and getattr(args, "quiet", False))
        forced = bool(args and getattr(args, "progress", False))
        self.enabled = not quiet and (forced or terminal)
        self.live = self.enabled and terminal  # one line rewritten in place
        self.total, self.done = total, 0

    def step(self, what):
        """Announces the next of the N units of work."""
        self.done += 1
        if not self.enabled:
            return
        line = "[%d/%d] %s" % (self.done, self.total, what)
        self.stream.write(("\r\033[K" + line) if self.live else line + "\n")
        self.stream.flush()

    def finish(self):
        if self.live and self.done:
            self.stream.write("\r\033[K")
            self.stream.flush()
