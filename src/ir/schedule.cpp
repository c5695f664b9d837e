#include "ir/schedule.h"

namespace dace::ir {

ScheduleType* schedule_field(Node& n) {
  switch (n.kind) {
    case NodeKind::MapEntry: return &static_cast<MapEntry&>(n).map.schedule;
    case NodeKind::ConsumeEntry: return &static_cast<ConsumeEntry&>(n).consume.schedule;
    case NodeKind::NestedSDFG: return &static_cast<NestedSDFGNode&>(n).schedule;
    case NodeKind::Library: return &static_cast<LibraryNode&>(n).schedule;
    default: return nullptr;
  }
}

const ScheduleType* schedule_field(const Node& n) { return schedule_field(const_cast<Node&>(n)); }

ScheduleType schedule_of(const Node& n) {
  const ScheduleType* s = schedule_field(n);
  return s ? *s : ScheduleType::Default;
}

bool is_gpu_schedule(ScheduleType s) {
  using S = ScheduleType;
  return s == S::GPU_Default || s == S::GPU_Device || s == S::GPU_ThreadBlock || s == S::GPU_ThreadBlock_Dynamic ||
         s == S::GPU_Persistent;
}

}  // namespace dace::ir
