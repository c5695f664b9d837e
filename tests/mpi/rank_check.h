// What the MPI test hosts share: this process's rank and size as mpirun announces them (the
// hosts do not link MPI; the plugin initialises it) and failure counting that names the rank.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>

namespace mpi_test {

inline int failures = 0;

inline int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

inline const int kRank = env_int("OMPI_COMM_WORLD_RANK", env_int("PMI_RANK", 0));
inline const int kSize = env_int("OMPI_COMM_WORLD_SIZE", env_int("PMI_SIZE", 1));

inline void expect(bool ok, const std::string& what) {
  if (!ok) {
    ++failures;
    std::fprintf(stderr, "rank %d: FAILED: %s\n", kRank, what.c_str());
  }
}

}  // namespace mpi_test
