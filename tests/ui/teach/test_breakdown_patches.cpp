// The cell breakdown of a vision transformer's layer (teach/teach_docks.hpp): the query's and
// the key's patches stand under the heading beside their labels (tests/fixtures/models/vit.json:
// 16 x 16 images, 4 x 4 patches, a class token); the class token and the cells of a text model
// show none.

#include <QTest>
#include <filesystem>
#include <memory>

#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/model/model.hpp"
#include "render/token_pictures.hpp"
#include "teach/teach_docks.hpp"

using namespace mhaviz::ui;
namespace model = mhaviz::model;

class TestBreakdownPatches : public QObject {
  Q_OBJECT

 private slots:
  void showsTheQueryAndKeyPatches() {
    const model::Model m =
        model::read_model(std::filesystem::path(MHAVIZ_FIXTURE_DIR) / "models" / "vit.json");
    const model::Layer& layer = m.layers.front();
    const auto result = std::make_shared<const mhaviz::ForwardResult>(
        mhaviz::forward(layer.problem.config, layer.problem.params, layer.problem.inputs));
    const model::PatchPictures pictures = model::patch_pictures(*m.index.image, m.image);
    ViewOptions view;
    view.batch = 1;
    for (const std::string& s : layer.info.config.query_labels)
      view.queryLabels << QString::fromStdString(s);
    view.keyLabels = view.queryLabels;

    BreakdownDock dock;
    // Head 0, query 6 = r1c1, key 11 = r2c2, of the second image.
    dock.showCell(result, view, 0, 6, 11, &pictures);
    QCOMPARE(dock.patches().first, patchPicture(pictures, 1, 6));
    QCOMPARE(dock.patches().second, patchPicture(pictures, 1, 11));
    QVERIFY(!dock.patches().first.isNull());
    QString html = dock.html();
    QCOMPARE(html.count(QStringLiteral("<img")), 2);
    QVERIFY(html.contains(QStringLiteral("r1c1")));
    QVERIFY(html.contains(QStringLiteral("r2c2")));
    // The heading comes first, the patches right under it.
    const qsizetype heading = html.indexOf(QStringLiteral("Batch 1, head 0, query 6, key 11"));
    QVERIFY(heading >= 0);
    QVERIFY(html.indexOf(QStringLiteral("<img")) > heading);
    QVERIFY(html.indexOf(QStringLiteral("<img")) < html.indexOf(QStringLiteral("q_i . k_j")));

    // The class token has no patch: only the key's.
    dock.showCell(result, view, 0, 0, 11, &pictures);
    QVERIFY(dock.patches().first.isNull());
    QVERIFY(!dock.patches().second.isNull());
    QCOMPARE(dock.html().count(QStringLiteral("<img")), 1);

    // The head average too.
    dock.showCell(result, view, static_cast<int>(result->H), 3, 4, &pictures);
    QCOMPARE(dock.html().count(QStringLiteral("<img")), 2);

    // Without pictures (a text model's layer): none.
    dock.showCell(result, view, 0, 6, 11);
    QVERIFY(dock.patches().first.isNull() && dock.patches().second.isNull());
    QCOMPARE(dock.html().count(QStringLiteral("<img")), 0);
  }
};

QTEST_MAIN(TestBreakdownPatches)
#include "test_breakdown_patches.moc"
