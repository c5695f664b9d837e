// Diagnostic logs for people finding out where time goes or why something was chosen:
// `DACE_LOG=debug` (or info, warn, error; default off) writes one line per event to stderr,
//   libdace[debug +12.345s] compile: lower 3.1 ms (sdfg "gemm", 1234 LLVM instructions)
// The level is read once, at the first check. When logging is off a check is one relaxed
// atomic load, so log points cost nothing measurable in normal runs.
#pragma once
#include <string>
#include <string_view>

namespace dace::log {

enum class Level { Off = 0, Error = 1, Warn = 2, Info = 3, Debug = 4 };

// Whether messages of `level` are written (DACE_LOG's level or a later set_level).
bool enabled(Level level);
// Overrides DACE_LOG (tests, hosts that want logs without the environment variable).
void set_level(Level level);
// Parses "off", "error", "warn", "info", "debug" (case-insensitive; "1"/"on" = info).
// Unknown text gives `fallback`.
Level parse_level(std::string_view text, Level fallback);
// Writes one line when `level` is enabled; `topic` is the component ("compile", "optimizer",
// "plugins", "cache"). Lines from different threads do not interleave.
void write(Level level, std::string_view topic, const std::string& message);

inline void debug(std::string_view topic, const std::string& message) {
  if (enabled(Level::Debug)) write(Level::Debug, topic, message);
}
inline void info(std::string_view topic, const std::string& message) {
  if (enabled(Level::Info)) write(Level::Info, topic, message);
}

// "12.3 ms" with one decimal, for messages.
std::string ms(double milliseconds);

}  // namespace dace::log
