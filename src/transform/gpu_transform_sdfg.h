// GPUTransformSDFG (DaCe's name and properties, dace/transformation/interstate/
// gpu_transform_sdfg.py): moves a whole SDFG to the GPU.
//   1. Non-transient data read or written in the SDFG (arrays; written scalars) get a
//      GPU_Global transient clone `gpu_<name>`; access nodes and memlets use the clone.
//      Data already in GPU_Global stays. A written array is copied in as well unless one
//      memlet writes all of it.
//   2. A copy-in state before the start block copies each read (or partly written) original
//      into its clone; 3. a copy-out state after every sink block copies each written clone back.
//   4. Top-level maps become GPU_Device, top-level library nodes and nested SDFGs GPU_Default
//      (their outputs go to GPU_Global); maps and library nodes inside scopes become
//      Sequential (`sequential_innermaps`).
//   5. Tasklets outside maps stay on the host only when all they touch is host scalars (and
//      chains of single-element copies of them); the others are wrapped in a one-point
//      GPU_Device map (7.), and the scalars they touch move to the GPU with them.
//      Then each top-level nested SDFG's body moves to the GPU the same way (recursively,
//      default options; connectors whose outer data is already on the device keep its
//      storage and are not copied), where every free tasklet goes into a kernel, since the
//      body runs under the node's GPU_Default schedule.
//   6. Top-level transients (arrays; scalars that moved) become GPU_Global (lifetime SDFG with
//      `toplevel_trans` when no symbol the SDFG assigns sizes them), transients inside
//      scopes Register (`register_trans`), except those that feed a map's range (dynamic
//      map inputs stay on the host).
//   8. Interstate edges that read device data get an `<state>_icopyout` state before them that
//      copies the data to the host (scalars to a `host_<name>` transient they then read).
//   9. simplify (`simplify`).
// Legal on the root SDFG (cfg 0) without consume scopes, without top-level code nodes that
// feed each other directly, and — beyond DaCe 1.0.2, which applies only to SDFGs without
// control-flow regions — with loops and branches whose headers and conditions read no data
// that moves to the GPU. The whole application is rehearsed on a copy in can_apply, so a
// refusal leaves the SDFG unchanged and names the element. Departure: the bodies of nested
// SDFGs are not simplified on their own (the final simplify covers them).
#pragma once
#include "transform/transformation.h"

namespace dace::transform {

class GPUTransformSDFG : public ControlFlowTransformation {
 public:
  GPUTransformSDFG() {
    props_.bind_bool("toplevel_trans", &toplevel_trans_);
    props_.bind_bool("register_trans", &register_trans_);
    props_.bind_bool("sequential_innermaps", &sequential_innermaps_);
    props_.bind_bool("skip_scalar_tasklets", &skip_scalar_tasklets_);
    props_.bind_bool("simplify", &simplify_);
    props_.bind_string("exclude_copyin", &exclude_copyin_);
    props_.bind_string("exclude_tasklets", &exclude_tasklets_);
    props_.bind_string("exclude_copyout", &exclude_copyout_);
  }
  std::string_view name() const override { return "GPUTransformSDFG"; }
  Modifies modifies() const override { return Modifies::Everything; }

  struct Options {
    bool toplevel_trans = true;
    bool register_trans = true;
    bool sequential_innermaps = true;
    std::string exclude_copyin, exclude_tasklets, exclude_copyout;
  };

 protected:
  size_t pattern_size() const override { return 0; }  // DaCe's pattern: the SDFG itself
  void region_matches(const ir::ControlFlowRegion& region, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& blocks) override;
  Status apply_at(const Site& site, const std::vector<int>& blocks) override;

 private:
  Options options() const;
  bool toplevel_trans_ = true;
  bool register_trans_ = true;
  bool sequential_innermaps_ = true;
  bool skip_scalar_tasklets_ = true;
  bool simplify_ = true;
  std::string exclude_copyin_, exclude_tasklets_, exclude_copyout_;
};

// Steps 1-8 above on `sdfg` (no simplify); an error names what cannot be moved (the SDFG may
// then be partly edited: callers rehearse on a copy).
Status move_sdfg_to_gpu(ir::SDFG& sdfg, const GPUTransformSDFG::Options& options);

}  // namespace dace::transform
