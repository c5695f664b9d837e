#include "transform/device_storage.h"

#include "transform/map_fusion_util.h"

namespace dace::transform {

std::string add_host_mirror(ir::SDFG& sdfg, const std::string& device, const std::string& suffix) {
  ir::DataDescriptor d = sdfg.arrays.at(device);
  d.storage = ir::StorageType::Default;
  d.transient = true;
  d.lifetime = ir::Lifetime::Scope;
  const std::string name = map_fusion::fresh_data_name(sdfg, device + suffix);
  sdfg.arrays.emplace(name, std::move(d));
  return name;
}

}  // namespace dace::transform
