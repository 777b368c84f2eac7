// Our Tiled loader against the Tiled editor's own reader, libtiled (Debian
// libtiled-dev, test only): for every .tmx of ../shared/data/maps, with every
// layer selected as solid, each tile layer's non-empty cells and each object
// layer's collision objects must be the same counts in both.
//
// libtiled reads TMX only, through Qt; its tilesets make QPixmaps, which need
// a QGuiApplication, so one runs on the offscreen platform for the whole
// test. The maps' images are missing on purpose (never needed): libtiled
// notes that and goes on. Templates (.tx) are read by a format the Tiled
// editor registers, not libtiled itself; the test registers one that hands
// them to libtiled's own MapReader::readObjectTemplate.
#include <libtiled/map.h>
#include <libtiled/mapobject.h>
#include <libtiled/mapreader.h>
#include <libtiled/objectgroup.h>
#include <libtiled/objecttemplate.h>
#include <libtiled/objecttemplateformat.h>
#include <libtiled/pluginmanager.h>
#include <libtiled/tilelayer.h>

#include <QGuiApplication>
#include <QString>

#include <gtest/gtest.h>

#include <sweep/io/tiled.hpp>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

/// Reads .tx templates with libtiled's MapReader, as the editor's own
/// template format does.
class TxTemplateFormat : public Tiled::ObjectTemplateFormat {
  public:
    std::unique_ptr<Tiled::ObjectTemplate> read(const QString& file_name) override {
        Tiled::MapReader reader;
        auto read = reader.readObjectTemplate(file_name);
        error_ = reader.errorString();
        return read;
    }
    bool write(const Tiled::ObjectTemplate*, const QString&) override { return false; }
    bool supportsFile(const QString& file_name) const override {
        return file_name.endsWith(QStringLiteral(".tx"), Qt::CaseInsensitive);
    }
    QString nameFilter() const override { return QStringLiteral("Tiled templates (*.tx)"); }
    QString shortName() const override { return QStringLiteral("tx"); }
    QString errorString() const override { return error_; }
    /// What Q_INTERFACES would make moc write: PluginManager finds formats
    /// with qobject_cast, which asks for the interface's id.
    void* qt_metacast(const char* name) override {
        if (name && std::strcmp(name, qobject_interface_iid<Tiled::ObjectTemplateFormat*>()) == 0) {
            return static_cast<Tiled::ObjectTemplateFormat*>(this);
        }
        return Tiled::ObjectTemplateFormat::qt_metacast(name);
    }

  private:
    QString error_;
};

/// The QGuiApplication libtiled needs and the template format, for the
/// whole test program.
class QtEnvironment : public ::testing::Environment {
  public:
    void SetUp() override {
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
        app_ = std::make_unique<QGuiApplication>(argc_, argv_);
        Tiled::PluginManager::instance(); // addObject needs it and does not make it
        Tiled::PluginManager::addObject(&templates_);
    }
    void TearDown() override {
        Tiled::PluginManager::removeObject(&templates_);
        Tiled::PluginManager::deleteInstance();
        app_.reset();
    }

  private:
    int argc_ = 1;
    char name_[16] = "oracle";
    char* argv_[2] = {name_, nullptr};
    std::unique_ptr<QGuiApplication> app_;
    TxTemplateFormat templates_;
};
const auto* const k_qt = ::testing::AddGlobalTestEnvironment(new QtEnvironment);

std::vector<fs::path> shared_tmx_maps() {
    std::vector<fs::path> maps;
    const fs::path root = fs::path(SWEEP_SHARED_DIR) / "data" / "maps";
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
        if (entry.is_regular_file() && entry.path().extension() == ".tmx") {
            maps.push_back(entry.path());
        }
    }
    std::sort(maps.begin(), maps.end());
    return maps;
}

/// Counts by layer name (several layers may share a name: their counts add).
using Counts = std::map<std::string, std::size_t>;

std::size_t non_empty_cells(const Tiled::TileLayer& layer) {
    std::size_t count = 0;
    const QRect bounds = layer.localBounds();
    for (int y = bounds.top(); y <= bounds.bottom(); ++y) {
        for (int x = bounds.left(); x <= bounds.right(); ++x) {
            count += layer.cellAt(x, y).isEmpty() ? 0 : 1;
        }
    }
    return count;
}

/// Whether the object collides when its layer is solid (docs/tiled.md):
/// rectangles and ellipses with a size, polygons with 3 distinct points and
/// an area, polylines with 2 distinct points, tile objects of a known tile;
/// never points or text, nor objects whose template cannot be read.
bool collides(const Tiled::MapObject& object) {
    if (object.objectTemplate() && !object.objectTemplate()->object()) {
        return false;
    }
    if (!object.cell().isEmpty()) {
        return true;
    }
    const QPolygonF& points = object.polygon();
    const auto distinct = [&] {
        std::set<std::pair<double, double>> seen;
        for (const QPointF& p : points) {
            seen.insert({p.x(), p.y()});
        }
        return seen.size();
    };
    switch (object.shape()) {
    case Tiled::MapObject::Rectangle:
    case Tiled::MapObject::Ellipse:
        return object.size().width() > 0 && object.size().height() > 0;
    case Tiled::MapObject::Polygon: {
        double twice_area = 0;
        for (int i = 0; i < points.size(); ++i) {
            const QPointF& a = points[i];
            const QPointF& b = points[(i + 1) % points.size()];
            twice_area += a.x() * b.y() - b.x() * a.y();
        }
        return distinct() >= 3 && twice_area != 0;
    }
    case Tiled::MapObject::Polyline:
        return distinct() >= 2;
    case Tiled::MapObject::Text:
    case Tiled::MapObject::Point:
        return false;
    }
    return false;
}

struct OracleCounts {
    Counts tiles;
    Counts objects;
    std::vector<std::string> layer_names;
};

OracleCounts libtiled_counts(const Tiled::Map& map) {
    OracleCounts out;
    for (Tiled::Layer* layer : map.allLayers()) {
        const std::string name = layer->name().toStdString();
        if (Tiled::TileLayer* tiles = layer->asTileLayer()) {
            out.layer_names.push_back(name);
            if (const std::size_t n = non_empty_cells(*tiles); n > 0) {
                out.tiles[name] += n;
            }
        } else if (Tiled::ObjectGroup* group = layer->asObjectGroup()) {
            out.layer_names.push_back(name);
            std::size_t n = 0;
            for (const Tiled::MapObject* object : group->objects()) {
                n += collides(*object) ? 1 : 0;
            }
            if (n > 0) {
                out.objects[name] += n;
            }
        }
    }
    return out;
}

Counts non_zero(const std::vector<std::pair<std::string, std::size_t>>& counts) {
    Counts out;
    for (const auto& [name, n] : counts) {
        if (n > 0) {
            out[name] += n;
        }
    }
    return out;
}

TEST(LibtiledOracle, EverySharedTmxHasTheSameTileAndObjectCounts) {
    const std::vector<fs::path> maps = shared_tmx_maps();
    ASSERT_GE(maps.size(), 10u);
    for (const fs::path& path : maps) {
        SCOPED_TRACE(path.string());
        Tiled::MapReader reader;
        const std::unique_ptr<Tiled::Map> map =
            reader.readMap(QString::fromStdString(path.string()));
        ASSERT_TRUE(map) << reader.errorString().toStdString();
        const OracleCounts expected = libtiled_counts(*map);
        ASSERT_FALSE(expected.layer_names.empty());
        ASSERT_FALSE(expected.tiles.empty() && expected.objects.empty()); // something to compare

        sweep::io::TiledLoadOptions options;
        options.solid_layers = expected.layer_names; // every layer: every cell and object counts
        const auto ours = sweep::io::load_tiled_map(path, options);
        ASSERT_TRUE(ours) << ours.error().message;
        EXPECT_EQ(non_zero(ours->solid_layer_counts), expected.tiles);
        EXPECT_EQ(non_zero(ours->object_layer_counts), expected.objects);
    }
}

} // namespace
