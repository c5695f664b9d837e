#include "pipeline/aot_archive.h"

#include <llvm/Object/ArchiveWriter.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

namespace dace::pipeline {

Result<std::string> static_archive(const std::string& object, const std::string& member) {
  llvm::NewArchiveMember m(llvm::MemoryBufferRef(object, member));
  m.MemberName = member;
  std::string warnings;
  auto buffer = llvm::writeArchiveToBuffer({std::move(m)}, llvm::SymtabWritingMode::NormalSymtab,
                                           llvm::object::Archive::K_GNU, /*Deterministic=*/true, /*Thin=*/false,
                                           [&](llvm::Error e) { warnings += llvm::toString(std::move(e)); });
  if (!buffer) return make_error(Code::Internal, "archive of " + member + ": " + llvm::toString(buffer.takeError()));
  if (!warnings.empty()) return make_error(Code::Internal, "archive of " + member + ": " + warnings);
  return std::string((*buffer)->getBufferStart(), (*buffer)->getBufferSize());
}

}  // namespace dace::pipeline
