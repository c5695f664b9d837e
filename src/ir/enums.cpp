#include "ir/enums.h"

#include <string>

namespace dace::ir {
namespace {

// DaCe writes enum values as `Name` but files of older versions as `EnumType.Name`.
std::string_view strip_qualifier(std::string_view s) {
  auto dot = s.rfind('.');
  return dot == std::string_view::npos ? s : s.substr(dot + 1);
}

}  // namespace

#define DACE_ENUM_CASE(T, name) case T::name: return #name;
#define DACE_ENUM_PARSE(T, name) if (s == #name) return T::name;
#define DACE_DEFINE_ENUM(T, LIST, parse_fn)                              \
  const char* to_string(T v) {                                          \
    switch (v) {                                                        \
      LIST(DACE_ENUM_CASE_##T)                                          \
    }                                                                   \
    return "?";                                                         \
  }                                                                     \
  std::optional<T> parse_fn(std::string_view s) {                       \
    s = strip_qualifier(s);                                             \
    LIST(DACE_ENUM_PARSE_##T)                                           \
    return std::nullopt;                                                \
  }

#define DACE_ENUM_CASE_StorageType(n) DACE_ENUM_CASE(StorageType, n)
#define DACE_ENUM_PARSE_StorageType(n) DACE_ENUM_PARSE(StorageType, n)
#define DACE_ENUM_CASE_ScheduleType(n) DACE_ENUM_CASE(ScheduleType, n)
#define DACE_ENUM_PARSE_ScheduleType(n) DACE_ENUM_PARSE(ScheduleType, n)
#define DACE_ENUM_CASE_Lifetime(n) DACE_ENUM_CASE(Lifetime, n)
#define DACE_ENUM_PARSE_Lifetime(n) DACE_ENUM_PARSE(Lifetime, n)
#define DACE_ENUM_CASE_OmpSchedule(n) DACE_ENUM_CASE(OmpSchedule, n)
#define DACE_ENUM_PARSE_OmpSchedule(n) DACE_ENUM_PARSE(OmpSchedule, n)
#define DACE_ENUM_CASE_Language(n) DACE_ENUM_CASE(Language, n)
#define DACE_ENUM_PARSE_Language(n) DACE_ENUM_PARSE(Language, n)

DACE_DEFINE_ENUM(StorageType, DACE_STORAGE_TYPES, parse_storage)
DACE_DEFINE_ENUM(ScheduleType, DACE_SCHEDULE_TYPES, parse_schedule)
DACE_DEFINE_ENUM(Lifetime, DACE_LIFETIME_TYPES, parse_lifetime)
DACE_DEFINE_ENUM(OmpSchedule, DACE_OMP_SCHEDULE_TYPES, parse_omp_schedule)
DACE_DEFINE_ENUM(Language, DACE_LANGUAGES, parse_language)

}  // namespace dace::ir
