// The user's masks, padding and labels survive size changes (gen::UserValues, issue 15).
#include <gtest/gtest.h>

#include "gen_test_util.hpp"
#include "mhaviz/core/gen/resize.hpp"
#include "mhaviz/core/gen/user_values.hpp"
#include "mhaviz/core/plan/problem.hpp"

using mhaviz::Config;
using mhaviz::gen::MaskCell;
using mhaviz::gen::MaskKind;
using mhaviz::gen::PaddingKind;
using mhaviz::gen::UserValues;
using mhaviz::test::small_config;

namespace {

/// What the window does for one edit: take the user's edits, fit to the requested sizes.
Config change(UserValues& values, const Config& shown, const Config& requested) {
  values.take_edits(shown, requested);
  Config next = requested;
  (void)values.fit(next);
  return next;
}

Config with_src_len(Config c, std::int64_t s) {
  c.src_len = s;
  return c;
}

Config user_config() {
  Config c = small_config();  // N = 2, H = 2
  c.tgt_len = 4;
  c.src_len = 40;
  c.key_padding_spec.kind = PaddingKind::lengths;
  c.key_padding_spec.valid_lengths = {30, 40};
  c.attn_mask_spec.kind = MaskKind::custom;
  c.attn_mask_spec.shape = mhaviz::gen::MaskShape::three_d;
  c.attn_mask_spec.cells = {MaskCell{0, 1, -1, std::nullopt}, MaskCell{2, 33, 3, 1.5}};
  for (int j = 0; j < 40; ++j) {
    std::string label = "k";  // appended, not "k" + ...: GCC 12 warns (-Wrestrict) on that
    c.key_labels.push_back(label.append(std::to_string(j)));
  }
  return c;
}

}  // namespace

TEST(GenUserValues, ValuesCutBySmallerSizesComeBack) {
  const Config full = user_config();
  UserValues values(full);
  const Config small = change(values, full, with_src_len(full, 4));
  EXPECT_EQ(small.key_padding_spec.valid_lengths, (std::vector<std::int64_t>{4, 4}));
  EXPECT_EQ(small.attn_mask_spec.cells.size(), 1U);
  EXPECT_EQ(small.key_labels.size(), 4U);
  EXPECT_NO_THROW((void)mhaviz::make_problem(small));
  const Config back = change(values, small, with_src_len(small, 40));
  EXPECT_EQ(back.key_padding_spec.valid_lengths, full.key_padding_spec.valid_lengths);
  EXPECT_EQ(back.attn_mask_spec.cells, full.attn_mask_spec.cells);
  EXPECT_EQ(back.key_labels, full.key_labels);
  // The sample without padding stays without padding at a larger S.
  const Config larger = change(values, back, with_src_len(back, 64));
  EXPECT_EQ(larger.key_padding_spec.valid_lengths, (std::vector<std::int64_t>{30, 64}));
  EXPECT_NO_THROW((void)mhaviz::make_problem(larger));
}

TEST(GenUserValues, EditsAtASmallSizeKeepWhatItCut) {
  const Config full = user_config();
  UserValues values(full);
  const Config small = change(values, full, with_src_len(full, 4));
  Config edited = small;
  edited.key_padding_spec.valid_lengths[0] = 2;  // the user pads sample 0 more
  edited.key_labels[0] = "first";
  edited.attn_mask_spec.cells.push_back(MaskCell{1, 3, -1, std::nullopt});
  const Config shown = change(values, small, edited);
  EXPECT_EQ(shown.key_padding_spec.valid_lengths, (std::vector<std::int64_t>{2, 4}));
  const Config back = change(values, shown, with_src_len(shown, 40));
  EXPECT_EQ(back.key_padding_spec.valid_lengths, (std::vector<std::int64_t>{2, 40}));
  EXPECT_EQ(back.key_labels.front(), "first");
  EXPECT_EQ(back.key_labels.back(), "k39");
  EXPECT_EQ(back.attn_mask_spec.cells.size(), 3U);
}

TEST(GenResize, AnUnpaddedSampleStaysUnpaddedWhenSGrows) {
  Config before = small_config();
  before.src_len = 6;
  before.key_padding_spec.kind = PaddingKind::lengths;
  before.key_padding_spec.valid_lengths = {6, 2};
  Config after = before;
  after.src_len = 10;
  (void)mhaviz::gen::fit_to_sizes(before, after);
  EXPECT_EQ(after.key_padding_spec.valid_lengths, (std::vector<std::int64_t>{10, 2}));
}
