// What a comparison says besides the maps: the settings of one configuration that differ from the
// other's (config_difference.hpp), in the configuration file's keys and values, and the table of
// each layer's and head's largest |B − A| of two model files (difference_table.hpp).

#include <QColor>
#include <QFont>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>

#include "compare/config_difference.hpp"
#include "compare/difference_table.hpp"
#include "mhaviz/core/model/model.hpp"
#include "mhaviz/core/model/weights_only.hpp"
#include "mhaviz/core/spec/config.hpp"
#include "model_compare_files.hpp"
#include "test_compare.hpp"

using namespace mhaviz::ui;
using namespace mhaviz::ui::testing::model_compare;
namespace model = mhaviz::model;

namespace {

/// The core's difference of B from A for batch element 0, with the models read from their files.
struct Difference {
  std::shared_ptr<const model::Model> a, b;
  model::WeightsDifference d;
};
Difference differenceOf(const QString& a, const QString& b) {
  Difference out;
  out.a = std::make_shared<const model::Model>(model::read_model(a.toStdString()));
  out.b = std::make_shared<const model::Model>(model::read_model(b.toStdString()));
  out.d = model::weights_difference(*out.a, model::compute_model(*out.a).weights, *out.b,
                                    model::compute_model(*out.b).weights, 0, "A");
  return out;
}

}  // namespace

// The sizes the header shows anyway are left out, and so is every setting that is the same.
void TestCompareLayer::differingSettingsLeaveOutWhatIsTheSame() {
  const mhaviz::Config a;
  QCOMPARE(differingSettings(a, a), QStringList());
  mhaviz::Config sizes = a;
  sizes.tgt_len = a.tgt_len + 3;
  sizes.src_len = a.src_len + 1;
  sizes.batch_size = std::nullopt;
  sizes.embed_dim = a.embed_dim * 2;
  sizes.num_heads = a.num_heads * 2;
  QCOMPARE(differingSettings(sizes, a), QStringList());
  QCOMPARE(differingSettings(a, sizes), QStringList());
  // One setting: each side names its own value.
  mhaviz::Config zero = sizes;
  zero.add_zero_attn = !a.add_zero_attn;
  const auto flag = [](bool on) { return on ? QStringLiteral("True") : QStringLiteral("False"); };
  QCOMPARE(differingSettings(zero, a),
           QStringList{QStringLiteral("add_zero_attn=") + flag(zero.add_zero_attn)});
  QCOMPARE(differingSettings(a, zero),
           QStringList{QStringLiteral("add_zero_attn=") + flag(a.add_zero_attn)});
}

// Keys and values as the configuration file writes them: semantics' spelling, True/False,
// numbers, None for an optional left out, objects as compact JSON.
void TestCompareLayer::differingSettingsAreWrittenAsInTheFile() {
  mhaviz::Config a;
  a.semantics = mhaviz::Semantics::v2;
  a.need_weights = true;
  a.dropout = 0.0;
  a.kdim = std::nullopt;
  mhaviz::Config b = a;
  b.semantics = mhaviz::Semantics::v1_13;
  b.need_weights = false;
  b.dropout = 0.25;
  b.kdim = 8;
  // In the file's order of keys.
  QCOMPARE(differingSettings(b, a),
           (QStringList{QStringLiteral("dropout=0.25"), QStringLiteral("kdim=8"),
                        QStringLiteral("need_weights=False"), QStringLiteral("semantics=1.13")}));
  QCOMPARE(differingSettings(a, b),
           (QStringList{QStringLiteral("dropout=0.0"), QStringLiteral("kdim=None"),
                        QStringLiteral("need_weights=True"), QStringLiteral("semantics=2.x")}));
  // Whole numbers exactly: seeds a digit apart, and beyond a double's 2^53, read apart.
  mhaviz::Config seeded = a;
  seeded.seed = 1234567;
  mhaviz::Config next = a;
  next.seed = 1234568;
  QCOMPARE(differingSettings(seeded, next), QStringList{QStringLiteral("seed=1234567")});
  QCOMPARE(differingSettings(next, seeded), QStringList{QStringLiteral("seed=1234568")});
  seeded.seed = (std::uint64_t{1} << 53) + 1;
  next.seed = std::uint64_t{1} << 53;
  QCOMPARE(differingSettings(seeded, next), QStringList{QStringLiteral("seed=9007199254740993")});
  // An object: the weights' generation, its scale changed.
  mhaviz::Config scaled = a;
  scaled.weight_spec.kind = mhaviz::gen::WeightKind::default_init;
  scaled.weight_spec.scale = 2.0;
  mhaviz::Config unscaled = scaled;
  unscaled.weight_spec.scale = 1.0;
  QCOMPARE(differingSettings(scaled, unscaled),
           QStringList{QStringLiteral(R"(weights={"kind":"default","scale":2.0})")});
}

// Values longer than 40 characters are cut to 39 and "…"; differences are written with two
// digits, NaN and ∞ by name.
void TestCompareLayer::differencesAreWrittenShort() {
  const mhaviz::Config a;
  mhaviz::Config labelled = a;
  labelled.query_labels = {"one", "two",   "three", "four", "five",
                           "six", "seven", "eight", "nine", "ten"};
  const QString json =
      QStringLiteral(R"(["one","two","three","four","five","six","seven","eight","nine","ten"])");
  QCOMPARE(differingSettings(labelled, a),
           QStringList{QStringLiteral("query_labels=") + json.left(39) + QChar(0x2026)});
  QCOMPARE(differingSettings(a, labelled), QStringList{QStringLiteral("query_labels=[]")});
  // 40 characters exactly: kept whole; 41: cut.
  labelled.query_labels = {std::string(36, 'x')};
  const QString forty = QStringLiteral("[\"%1\"]").arg(QString(36, QLatin1Char('x')));
  QCOMPARE(forty.size(), 40);
  QCOMPARE(differingSettings(labelled, a), QStringList{QStringLiteral("query_labels=") + forty});
  labelled.query_labels = {std::string(37, 'x')};
  const QStringList cut = differingSettings(labelled, a);
  QCOMPARE(cut.size(), 1);
  QCOMPARE(cut.front(),
           QStringLiteral("query_labels=[\"") + QString(37, QLatin1Char('x')) + QChar(0x2026));

  QCOMPARE(differenceText(0.25), QStringLiteral("0.25"));
  QCOMPARE(differenceText(0.123456), QStringLiteral("0.12"));
  QCOMPARE(differenceText(0.0), QStringLiteral("0"));
  QCOMPARE(differenceText(1.5e-5), QStringLiteral("1.5e-05"));
  QCOMPARE(differenceText(std::numeric_limits<double>::quiet_NaN()), QStringLiteral("NaN"));
  QCOMPARE(differenceText(std::numeric_limits<double>::infinity()), QStringLiteral("\u221e"));
}

// Layers down, heads across, each cell the largest |B − A| of that map: shaded from none to red
// in proportion to the largest, which is bold; its tooltip names the layer and gives the mean.
void TestCompareLayer::theDifferenceTableShowsEveryLayerAndHead() {
  QTemporaryDir dir;
  const Pair p = pairOfRuns();
  const QString a = writeModel(dir, QStringLiteral("a"), p.a, kWords);
  const QString b = writeModel(dir, QStringLiteral("b"), p.b, kWords);
  const Difference diff = differenceOf(a, b);
  QCOMPARE(diff.d.worst_layer, std::size_t(1));
  QCOMPARE(diff.d.worst_head, std::int64_t(2));
  model::WeightsDifference shown = diff.d;
  shown.largest[1][2] = shown.worst = 0.25;
  shown.largest[0][1] = 0.1;  // 0.4 of the largest: 0.4 of the red
  shown.largest[2][3] = std::numeric_limits<double>::quiet_NaN();

  DifferenceTable table;
  table.set(std::make_shared<const model::WeightsDifference>(shown), diff.b);
  QCOMPARE(table.rowCount({}), int(kLayers));
  QCOMPARE(table.columnCount({}), int(kHeads));
  const auto cell = [&table](int row, int column, int role = Qt::DisplayRole) {
    return table.data(table.index(row, column), role);
  };
  QCOMPARE(cell(1, 2).toString(), QStringLiteral("0.25"));
  QCOMPARE(cell(0, 1).toString(), QStringLiteral("0.1"));
  QCOMPARE(cell(0, 0).toString(), QStringLiteral("0"));
  QCOMPARE(cell(2, 3).toString(), QStringLiteral("NaN"));
  // Bold: the largest only.
  QVERIFY(cell(1, 2, Qt::FontRole).value<QFont>().bold());
  QVERIFY(!cell(0, 1, Qt::FontRole).isValid());
  QVERIFY(!cell(0, 0, Qt::FontRole).isValid());
  // Shading: none where there is no difference, red in proportion, NaN as the largest.
  QVERIFY(!cell(0, 0, Qt::BackgroundRole).isValid());
  QVERIFY(!cell(0, 0, Qt::ForegroundRole).isValid());
  QCOMPARE(cell(1, 2, Qt::BackgroundRole).value<QColor>(), QColor::fromRgbF(1.0F, 0.28F, 0.28F));
  QCOMPARE(cell(1, 2, Qt::ForegroundRole).value<QColor>(), QColor(Qt::white));
  QCOMPARE(cell(0, 1, Qt::BackgroundRole).value<QColor>(), QColor::fromRgbF(1.0F, 0.712F, 0.712F));
  QCOMPARE(cell(0, 1, Qt::ForegroundRole).value<QColor>(), QColor(Qt::black));
  QCOMPARE(cell(2, 3, Qt::BackgroundRole).value<QColor>(), QColor::fromRgbF(1.0F, 0.28F, 0.28F));
  QVERIFY(cell(1, 2, Qt::TextAlignmentRole).value<Qt::Alignment>() ==
          (Qt::AlignRight | Qt::AlignVCenter));
  // The tooltip: the layer by name, the largest and the mean of that map.
  const double mean = diff.d.mean[1][2];
  QVERIFY(mean > 0 && mean < diff.d.worst);
  QCOMPARE(cell(1, 2, Qt::ToolTipRole).toString(),
           QStringLiteral("layer 1 (attentions.1), head 2: largest |B \u2212 A| 0.25, mean %1")
               .arg(differenceText(mean)));
  // Headers: layers by number (their names in the tooltip), heads as h0, h1...
  QCOMPARE(table.headerData(1, Qt::Vertical, Qt::DisplayRole).toString(),
           QStringLiteral("layer 1"));
  QCOMPARE(table.headerData(1, Qt::Vertical, Qt::ToolTipRole).toString(),
           QStringLiteral("layer 1 (attentions.1)"));
  QCOMPARE(table.headerData(2, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("h2"));
  QCOMPARE(table.headerData(2, Qt::Horizontal, Qt::ToolTipRole).toString(),
           QStringLiteral("head 2"));
}

// Two files that do not differ: no cell shaded or bold (the largest, 0, is no difference); and
// an empty table once the difference is gone.
void TestCompareLayer::theDifferenceTableWithoutADifference() {
  QTemporaryDir dir;
  const QString b = writeModel(dir, QStringLiteral("b"), pairOfRuns().b, kWords);
  const Difference same = differenceOf(b, b);
  QCOMPARE(same.d.worst, 0.0);
  DifferenceTable table;
  table.set(std::make_shared<const model::WeightsDifference>(same.d), same.b);
  QCOMPARE(table.rowCount({}), int(kLayers));
  for (int row = 0; row < table.rowCount({}); ++row) {
    for (int column = 0; column < table.columnCount({}); ++column) {
      const QModelIndex at = table.index(row, column);
      QCOMPARE(table.data(at, Qt::DisplayRole).toString(), QStringLiteral("0"));
      QVERIFY(!table.data(at, Qt::FontRole).isValid());
      QVERIFY(!table.data(at, Qt::BackgroundRole).isValid());
    }
  }
  // A difference without the model that names its layers: nothing either (its tooltips read the
  // model's index).
  table.set(std::make_shared<const model::WeightsDifference>(same.d), nullptr);
  QCOMPARE(table.rowCount({}), 0);
  table.set(nullptr, nullptr);
  QCOMPARE(table.rowCount({}), 0);
  QCOMPARE(table.columnCount({}), 0);
  QVERIFY(!table.headerData(0, Qt::Vertical, Qt::DisplayRole).isValid());
  QVERIFY(!table.headerData(0, Qt::Horizontal, Qt::DisplayRole).isValid());
}
