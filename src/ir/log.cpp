#include "ir/log.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace dace::log {

namespace {

constexpr int kUnread = -1;
std::atomic<int> current_level{kUnread};

const auto process_start = std::chrono::steady_clock::now();

int level_from_environment() {
  const char* text = std::getenv("DACE_LOG");
  return static_cast<int>(text ? parse_level(text, Level::Info) : Level::Off);
}

const char* name_of(Level level) {
  switch (level) {
    case Level::Error: return "error";
    case Level::Warn: return "warn";
    case Level::Info: return "info";
    case Level::Debug: return "debug";
    case Level::Off: break;
  }
  return "off";
}

}  // namespace

Level parse_level(std::string_view text, Level fallback) {
  std::string lower;
  for (char c : text) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (lower == "off" || lower == "0" || lower == "none" || lower.empty()) return Level::Off;
  if (lower == "error") return Level::Error;
  if (lower == "warn" || lower == "warning") return Level::Warn;
  if (lower == "info" || lower == "1" || lower == "on") return Level::Info;
  if (lower == "debug" || lower == "2" || lower == "all") return Level::Debug;
  return fallback;
}

bool enabled(Level level) {
  int current = current_level.load(std::memory_order_relaxed);
  if (current == kUnread) {
    int read = level_from_environment();
    // Another thread may have read it (or set_level run) meanwhile: keep the first value.
    if (current_level.compare_exchange_strong(current, read, std::memory_order_relaxed)) current = read;
  }
  return level != Level::Off && static_cast<int>(level) <= current;
}

void set_level(Level level) { current_level.store(static_cast<int>(level), std::memory_order_relaxed); }

void write(Level level, std::string_view topic, const std::string& message) {
  if (!enabled(level)) return;
  static std::mutex mutex;
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - process_start).count();
  std::lock_guard lock(mutex);
  std::fprintf(stderr, "libdace[%s +%.3fs] %.*s: %s\n", name_of(level), seconds, static_cast<int>(topic.size()),
               topic.data(), message.c_str());
  std::fflush(stderr);
}

std::string ms(double milliseconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f ms", milliseconds);
  return buf;
}

}  // namespace dace::log
