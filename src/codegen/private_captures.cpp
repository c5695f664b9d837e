#include "codegen/private_captures.h"

namespace dace::codegen {

std::vector<bool> private_captures(const Frame& body) {
  auto descriptor = [&](const Frame::Capture& c) -> const ir::DataDescriptor* {
    if (c.data.empty()) return nullptr;
    auto d = body.sc.sdfg.arrays.find(c.data);
    return d == body.sc.sdfg.arrays.end() ? nullptr : &d->second;
  };
  auto may_point_anywhere = [](const ir::DataDescriptor& d) {
    return d.kind == ir::DataKind::View || d.kind == ir::DataKind::Reference;
  };
  std::vector<bool> result(body.captures.size(), false);
  for (const Frame::Capture& c : body.captures)
    if (const ir::DataDescriptor* d = descriptor(c); d && may_point_anywhere(*d)) return result;
  for (size_t i = 0; i < body.captures.size(); ++i) {
    const Frame::Capture& c = body.captures[i];
    const ir::DataDescriptor* d = descriptor(c);
    if (!d || !c.load || !c.load->getType()->isPointerTy()) continue;
    result[i] = d->transient || (body.sc.parent == nullptr && !d->may_alias && body.mc.options.noalias_arguments);
  }
  return result;
}

}  // namespace dace::codegen
