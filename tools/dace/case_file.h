// The case.json of the SDFG corpus (/work/shared/sdfg-corpus/README.md): which .npy files
// feed which arguments, symbol values, and the expected outputs with their tolerances.
// A distributed case (../shared/sdfg-corpus-mpi: a "ranks" field) keys "inputs" and
// "expected_outputs" by rank; the file is read for one rank (mpi_rank()).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace dace::cli {

struct CaseFile {
  std::map<std::string, std::string> inputs;            // argument -> .npy path (resolved)
  std::map<std::string, int64_t> symbols;               // symbol -> value
  std::map<std::string, std::string> expected_outputs;  // argument -> .npy path (resolved)
  double rtol = 1e-10;
  double atol = 1e-12;
  int ranks = 0;  // a distributed case: the number of MPI processes it needs; 0 = not one
};

// This process's rank and the number of ranks as the MPI launcher announces them
// (OMPI_COMM_WORLD_RANK/SIZE, PMI_RANK/SIZE, PMIX_RANK); 0 and 1 outside a launcher.
int mpi_rank();
int mpi_world_size();

// Paths inside the file are relative to the file's folder. On failure returns nullopt and
// sets `error` to a message naming the offending key.
// For a distributed case, `rank` selects the per-rank inputs and outputs; a rank missing
// from "inputs" is an error, a rank missing from "expected_outputs" has none to check.
std::optional<CaseFile> read_case_file(const std::string& path, std::string& error, int rank = 0);

}  // namespace dace::cli
