// DaCe's enumerations, with the names DaCe uses in code and in `.sdfg` JSON.
#pragma once
#include <optional>
#include <string_view>

namespace dace::ir {

#define DACE_STORAGE_TYPES(X) \
  X(Default) X(Register) X(CPU_Pinned) X(CPU_Heap) X(CPU_ThreadLocal) X(GPU_Global)      \
  X(GPU_Shared) X(FPGA_Global) X(FPGA_Local) X(FPGA_Registers) X(FPGA_ShiftRegister)    \
  X(SVE_Register) X(Snitch_TCDM) X(Snitch_L2) X(Snitch_SSR)

#define DACE_SCHEDULE_TYPES(X) \
  X(Default) X(Sequential) X(MPI) X(CPU_Multicore) X(CPU_Persistent) X(Unrolled)         \
  X(SVE_Map) X(GPU_Default) X(GPU_Device) X(GPU_ThreadBlock) X(GPU_ThreadBlock_Dynamic) \
  X(GPU_Persistent) X(FPGA_Device) X(FPGA_Multi_Pumped) X(Snitch) X(Snitch_Multicore)

#define DACE_LIFETIME_TYPES(X) \
  X(Scope) X(State) X(SDFG) X(Global) X(Persistent) X(External)

#define DACE_OMP_SCHEDULE_TYPES(X) X(Default) X(Static) X(Dynamic) X(Guided)

#define DACE_LANGUAGES(X) X(Python) X(CPP) X(OpenCL) X(SystemVerilog) X(MLIR)

#define DACE_ENUM_MEMBER(name) name,
enum class StorageType { DACE_STORAGE_TYPES(DACE_ENUM_MEMBER) };
enum class ScheduleType { DACE_SCHEDULE_TYPES(DACE_ENUM_MEMBER) };
enum class Lifetime { DACE_LIFETIME_TYPES(DACE_ENUM_MEMBER) };
enum class OmpSchedule { DACE_OMP_SCHEDULE_TYPES(DACE_ENUM_MEMBER) };
enum class Language { DACE_LANGUAGES(DACE_ENUM_MEMBER) };
#undef DACE_ENUM_MEMBER

const char* to_string(StorageType v);
const char* to_string(ScheduleType v);
const char* to_string(Lifetime v);
const char* to_string(OmpSchedule v);
const char* to_string(Language v);

// Accept DaCe's names, also in the `StorageType.CPU_Heap` form old files use.
std::optional<StorageType> parse_storage(std::string_view s);
std::optional<ScheduleType> parse_schedule(std::string_view s);
std::optional<Lifetime> parse_lifetime(std::string_view s);
std::optional<OmpSchedule> parse_omp_schedule(std::string_view s);
std::optional<Language> parse_language(std::string_view s);

}  // namespace dace::ir
