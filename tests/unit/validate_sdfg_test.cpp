// SDFG-level and data-descriptor validation rules.
#include "validate_builder.h"

namespace vtest {
namespace {

TEST(ValidateSdfg, SimpleMapIsValid) {
  Builder b = simple_map_sdfg();
  expect_valid(*b.g);
}

TEST(ValidateSdfg, InvalidSdfgName) {
  Builder b = simple_map_sdfg("1bad");
  expect_error(*b.g, "sdfg \"1bad\": invalid SDFG name");
}

TEST(ValidateSdfg, NoBlocks) {
  Builder b("empty");
  expect_error(*b.g, "sdfg \"empty\": SDFG has no blocks (at least one state is required)");
}

TEST(ValidateSdfg, InvalidSymbolName) {
  Builder b = simple_map_sdfg();
  b.symbol("a-b");
  expect_error(*b.g, "sdfg \"simple\" / symbol \"a-b\": invalid symbol name");
}

TEST(ValidateSdfg, SymbolAndDataShareName) {
  Builder b = simple_map_sdfg();
  b.symbol("A");
  expect_error(*b.g, "sdfg \"simple\" / data \"A\": name is used by both a data container and a symbol");
}

TEST(ValidateData, InvalidDataName) {
  Builder b = simple_map_sdfg();
  b.data("x y", array({"4"}, true));
  expect_error(*b.g, "sdfg \"simple\" / data \"x y\": invalid data name");
}

TEST(ValidateData, KeywordIsNotAName) {
  Builder b = simple_map_sdfg();
  b.data("None", array({"4"}, true));
  expect_error(*b.g, "sdfg \"simple\" / data \"None\": invalid data name");
}

TEST(ValidateData, NoElementType) {
  Builder b = simple_map_sdfg();
  b.g->arrays["A"].dtype = DType{};
  expect_error(*b.g, "sdfg \"simple\" / data \"A\": data descriptor has no element type");
}

TEST(ValidateData, NegativeShape) {
  Builder b = simple_map_sdfg();
  b.data("T", array({"-3"}, true));
  expect_error(*b.g, "sdfg \"simple\" / data \"T\": shape dimension 0 is negative (-3)");
}

TEST(ValidateData, NullShapeEntry) {
  Builder b = simple_map_sdfg();
  DataDescriptor d = array({"4"}, true);
  d.shape[0] = nullptr;
  b.data("T", d);
  expect_error(*b.g, "sdfg \"simple\" / data \"T\": shape dimension 0 is missing (null expression)");
}

TEST(ValidateData, StridesRankMismatch) {
  Builder b = simple_map_sdfg();
  DataDescriptor d = array({"4", "4"}, true);
  d.strides = {E("1")};
  b.data("T", d);
  expect_error(*b.g, "sdfg \"simple\" / data \"T\": has 1 strides for 2 dimensions");
}

TEST(ValidateData, OffsetRankMismatch) {
  Builder b = simple_map_sdfg();
  DataDescriptor d = array({"4", "4"}, true);
  d.offset = {E("0")};
  b.data("T", d);
  expect_error(*b.g, "sdfg \"simple\" / data \"T\": has 1 offsets for 2 dimensions");
}

// DaCe's GPU reduction expansions reshape arrays and leave the longer offset list; DaCe
// accepts it and ignores the extra entries.
TEST(ValidateData, TrailingOffsetsAreAccepted) {
  Builder b = simple_map_sdfg();
  DataDescriptor d = array({"4"}, true);
  d.offset = {E("0"), E("0")};
  b.data("T", d);
  expect_valid(*b.g);
}

TEST(ValidateData, NegativeStrideOfTransient) {
  Builder b = simple_map_sdfg();
  DataDescriptor d = array({"4"}, true);
  d.strides = {E("-1")};
  b.data("T", d);
  expect_error(*b.g, "sdfg \"simple\" / data \"T\": strides dimension 0 is negative (-1): only non-transient "
                     "data (passed in by the caller) may have negative strides");
}

TEST(ValidateData, NegativeAndZeroStridesOfArguments) {
  // NumPy's a[::-1] and np.broadcast_to views, as DaCe accepts them.
  Builder b = simple_map_sdfg();
  DataDescriptor d = array({"4", "3"}, false);
  d.strides = {E("-3"), E("0")};
  b.data("T", d);
  expect_valid(*b.g);
}

TEST(ValidateData, NegativeTotalSize) {
  Builder b = simple_map_sdfg();
  DataDescriptor d = array({"4"}, true);
  d.total_size = E("-4");
  b.data("T", d);
  expect_error(*b.g, "sdfg \"simple\" / data \"T\": total size is negative (-4)");
}

TEST(ValidateData, UndefinedShapeSymbol) {
  Builder b = simple_map_sdfg();
  b.data("T", array({"M"}, true));
  expect_error(*b.g, "sdfg \"simple\" / data \"T\": undefined symbol \"M\" in shape");
}

TEST(ValidateData, UndefinedStrideSymbol) {
  Builder b = simple_map_sdfg();
  DataDescriptor d = array({"N"}, true);
  d.strides = {E("K")};
  b.data("T", d);
  expect_error(*b.g, "sdfg \"simple\" / data \"T\": undefined symbol \"K\" in strides");
}

TEST(ValidateData, ScalarShapeMustBeOne) {
  Builder b = simple_map_sdfg();
  DataDescriptor d = scalar(true);
  d.shape = {E("2")};
  b.data("x", d);
  expect_error(*b.g, "sdfg \"simple\" / data \"x\": a scalar must have shape (1)");
}

TEST(ValidateData, PersistentRegister) {
  Builder b = simple_map_sdfg();
  DataDescriptor d = array({"4"}, true);
  d.lifetime = Lifetime::Persistent;
  d.storage = StorageType::Register;
  b.data("T", d);
  expect_error(*b.g,
               "sdfg \"simple\" / data \"T\": lifetime Persistent cannot be combined with Register storage; use a "
               "different storage location");
}

TEST(ValidateData, ExternalRegister) {
  Builder b = simple_map_sdfg();
  DataDescriptor d = array({"4"}, true);
  d.lifetime = Lifetime::External;
  d.storage = StorageType::Register;
  b.data("T", d);
  expect_error(*b.g,
               "sdfg \"simple\" / data \"T\": lifetime External cannot be combined with Register storage; use a "
               "different storage location");
}

TEST(ValidateData, PersistentNonTransient) {
  Builder b = simple_map_sdfg();
  b.g->arrays["A"].lifetime = Lifetime::Persistent;
  expect_error(*b.g, "sdfg \"simple\" / data \"A\": lifetime Persistent applies only to transient data");
}

TEST(ValidateData, GlobalNonTransient) {
  Builder b = simple_map_sdfg();
  b.g->arrays["A"].lifetime = Lifetime::Global;
  expect_error(*b.g, "sdfg \"simple\" / data \"A\": lifetime Global applies only to transient data");
}

TEST(ValidateData, ViewMustBeTransient) {
  Builder b = simple_map_sdfg();
  DataDescriptor d = array({"N"}, false);
  d.kind = DataKind::View;
  b.data("V", d);
  expect_error(*b.g, "sdfg \"simple\" / data \"V\": a view must be transient");
}

TEST(ValidateData, ReferenceMustBeTransient) {
  Builder b = simple_map_sdfg();
  DataDescriptor d = array({"N"}, false);
  d.kind = DataKind::Reference;
  b.data("R", d);
  expect_error(*b.g, "sdfg \"simple\" / data \"R\": a reference must be transient");
}

TEST(ValidateData, TopLevelScalarReturn) {
  Builder b = simple_map_sdfg();
  b.data("__return", scalar(false));
  expect_error(*b.g,
               "sdfg \"simple\" / data \"__return\": a non-transient scalar cannot be the return value of a "
               "top-level SDFG");
}

TEST(ValidateData, StreamNegativeBufferSize) {
  Builder b = simple_map_sdfg();
  DataDescriptor d;
  d.kind = DataKind::Stream;
  d.shape = {E("1")};
  d.transient = true;
  complete_defaults(d);
  d.buffer_size = E("-2");
  b.data("st", d);
  expect_error(*b.g, "sdfg \"simple\" / data \"st\": buffer size is negative (-2)");
}

TEST(ValidateAll, ReportsSeveralViolations) {
  Builder b = simple_map_sdfg("9x");
  b.data("T", array({"-1"}, true));
  auto errors = analysis::validate_all(*b.g);
  // The shape of T also makes its default total size negative.
  ASSERT_EQ(errors.size(), 3u) << all_messages(errors);
  EXPECT_EQ(errors[0].message, "sdfg \"9x\": invalid SDFG name");
  EXPECT_EQ(errors[1].message, "sdfg \"9x\" / data \"T\": shape dimension 0 is negative (-1)");
  EXPECT_EQ(errors[2].message, "sdfg \"9x\" / data \"T\": total size is negative (-1)");
  EXPECT_EQ(analysis::validate_all(*b.g, 1).size(), 1u);
}

}  // namespace
}  // namespace vtest
