#include "session/session_file.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <array>
#include <exception>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <utility>

#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/io/config_json.hpp"
#include "mhaviz/core/io/file_bytes.hpp"
#include "mhaviz/core/io/npz.hpp"
#include "mhaviz/core/io/tensor_file.hpp"

namespace mhaviz::ui {

namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kFormat = "mhaviz-session";

// Stable names written to the file (independent of the translated names shown in the UI).
constexpr std::array<std::pair<Stage, const char*>, 15> kStages = {{
    {Stage::weights, "weights"},
    {Stage::weights_before_dropout, "weights_before_dropout"},
    {Stage::raw_scores, "raw_scores"},
    {Stage::capped_scores, "capped_scores"},
    {Stage::mask, "mask"},
    {Stage::scores, "scores"},
    {Stage::q, "q"},
    {Stage::k, "k"},
    {Stage::v, "v"},
    {Stage::head_output, "head_output"},
    {Stage::merged, "merged"},
    {Stage::output, "output"},
    {Stage::value_norms, "value_norms"},
    {Stage::value_zeroing, "value_zeroing"},
    {Stage::sink_scores, "sink_scores"},
}};
constexpr std::array<std::pair<Colormap, const char*>, 5> kColormaps = {{
    {Colormap::viridis, "viridis"},
    {Colormap::magma, "magma"},
    {Colormap::cividis, "cividis"},
    {Colormap::grayscale, "grayscale"},
    {Colormap::diverging, "diverging"},
}};
constexpr std::array<std::pair<Reduce, const char*>, 2> kReduces = {{
    {Reduce::mean, "mean"},
    {Reduce::max, "max"},
}};

[[noreturn]] void fail(const QString& message) {
  throw mhaviz::InvalidInput(message.toStdString());
}

template <typename Enum, std::size_t K>
const char* nameOf(const std::array<std::pair<Enum, const char*>, K>& table, Enum value) {
  for (const auto& [e, name] : table) {
    if (e == value) return name;
  }
  return table[0].second;
}

template <typename Enum, std::size_t K>
Enum enumFrom(const std::array<std::pair<Enum, const char*>, K>& table, const Json& value,
              const QString& where) {
  QStringList names;
  for (const auto& [e, name] : table) {
    if (value.is_string() && value.get<std::string>() == name) return e;
    names << QString::fromLatin1(name);
  }
  fail(QCoreApplication::translate("mhaviz::ui::SessionFile", "%1 must be one of %2.")
           .arg(where, names.join(QStringLiteral(", "))));
}

QString displayName(const QString& path) { return QFileInfo(path).fileName(); }

Json viewToJson(const ViewOptions& v) {
  Json j;
  j["stage"] = nameOf(kStages, v.stage);
  j["batch"] = v.batch;
  j["colormap"] = nameOf(kColormaps, v.colormap);
  j["perHeadScale"] = v.perHeadScale;
  j["autoRange"] = v.autoRange;
  j["soloHead"] = v.soloHead;
  j["showAverage"] = v.showAverage;
  j["reduce"] = nameOf(kReduces, v.reduce);
  return j;
}

int intFrom(const Json& value, const QString& where) {
  if (!value.is_number_integer() || value.get<std::int64_t>() < -1 ||
      value.get<std::int64_t>() > 1'000'000'000) {
    fail(QCoreApplication::translate("mhaviz::ui::SessionFile", "%1 must be a whole number.")
             .arg(where));
  }
  return value.get<int>();
}

bool boolFrom(const Json& value, const QString& where) {
  if (!value.is_boolean())
    fail(QCoreApplication::translate("mhaviz::ui::SessionFile", "%1 must be true or false.")
             .arg(where));
  return value.get<bool>();
}

ViewOptions viewFromJson(const Json& j, const QString& name) {
  if (!j.is_object())
    fail(QCoreApplication::translate("mhaviz::ui::SessionFile", "%1: \"view\" must be an object.")
             .arg(name));
  ViewOptions v;
  for (const auto& [key, value] : j.items()) {
    const QString where = QStringLiteral("%1: view.%2").arg(name, QString::fromStdString(key));
    if (key == "stage") {
      v.stage = enumFrom(kStages, value, where);
    } else if (key == "batch") {
      v.batch = intFrom(value, where);
    } else if (key == "colormap") {
      v.colormap = enumFrom(kColormaps, value, where);
    } else if (key == "perHeadScale") {
      v.perHeadScale = boolFrom(value, where);
    } else if (key == "autoRange") {
      v.autoRange = boolFrom(value, where);
    } else if (key == "soloHead") {
      v.soloHead = intFrom(value, where);
    } else if (key == "showAverage") {
      v.showAverage = boolFrom(value, where);
    } else if (key == "reduce") {
      v.reduce = enumFrom(kReduces, value, where);
    } else {
      fail(QCoreApplication::translate("mhaviz::ui::SessionFile",
                                       "%1 is not a view setting (known: stage, batch, colormap, "
                                       "perHeadScale, autoRange, soloHead, showAverage, reduce).")
               .arg(where));
    }
  }
  if (v.batch < 0)
    fail(QCoreApplication::translate("mhaviz::ui::SessionFile", "%1: view.batch must be 0 or more.")
             .arg(name));
  return v;
}

QByteArray npzBytes(const mhaviz::io::TensorMap& tensors) {
  QTemporaryDir dir;
  if (!dir.isValid())
    fail(QCoreApplication::translate("mhaviz::ui::SessionFile",
                                     "Cannot create a temporary folder to embed tensors."));
  const QString path = dir.filePath(QStringLiteral("tensors.npz"));
  mhaviz::io::write_npz(path.toStdString(), tensors);
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    fail(QCoreApplication::translate("mhaviz::ui::SessionFile",
                                     "Cannot read back the tensors to embed: %1")
             .arg(file.errorString()));
  }
  return file.readAll();
}

Json tensorsToJson(const Session& s, const QString& sessionPath) {
  Json j;
  if (s.embedTensors || s.tensorsFile.isEmpty()) {
    j["npz_base64"] = npzBytes(*s.tensors).toBase64().toStdString();
    return j;
  }
  const QDir dir = QFileInfo(sessionPath).absoluteDir();
  const QString absolute = QFileInfo(s.tensorsFile).absoluteFilePath();
  const QString relative = dir.relativeFilePath(absolute);
  j["file"] = (relative.startsWith(QStringLiteral("..")) ? absolute : relative).toStdString();
  return j;
}

std::shared_ptr<const mhaviz::io::TensorMap> tensorsFromJson(const Json& j, const QString& name,
                                                             const QString& sessionPath,
                                                             Session& out) {
  if (!j.is_object() || j.size() != 1 || (!j.contains("file") && !j.contains("npz_base64"))) {
    fail(QCoreApplication::translate(
             "mhaviz::ui::SessionFile",
             "%1: \"tensors\" must be {\"file\": path} or {\"npz_base64\": data}.")
             .arg(name));
  }
  if (j.contains("npz_base64")) {
    if (!j["npz_base64"].is_string())
      fail(
          QCoreApplication::translate("mhaviz::ui::SessionFile", "%1: npz_base64 must be a string.")
              .arg(name));
    const auto decoded = QByteArray::fromBase64Encoding(
        QByteArray::fromStdString(j["npz_base64"].get<std::string>()),
        QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
      fail(QCoreApplication::translate("mhaviz::ui::SessionFile",
                                       "%1: the embedded tensors are not valid base64.")
               .arg(name));
    const QByteArray& bytes = *decoded;
    out.embedTensors = true;
    return std::make_shared<const mhaviz::io::TensorMap>(mhaviz::io::parse_npz(
        std::as_bytes(std::span(bytes.constData(), static_cast<std::size_t>(bytes.size()))),
        (name + QStringLiteral(" (embedded tensors)")).toStdString()));
  }
  if (!j["file"].is_string())
    fail(
        QCoreApplication::translate("mhaviz::ui::SessionFile", "%1: tensors.file must be a string.")
            .arg(name));
  const QString file = QString::fromStdString(j["file"].get<std::string>());
  const QString path = QFileInfo(file).isAbsolute()
                           ? file
                           : QFileInfo(sessionPath).absoluteDir().absoluteFilePath(file);
  if (!QFileInfo::exists(path)) {
    fail(QCoreApplication::translate(
             "mhaviz::ui::SessionFile",
             "%1 refers to the tensors file %2, which does not exist. Put it beside "
             "the session (or at that path) and open the session again.")
             .arg(name, path));
  }
  out.tensorsFile = path;
  return std::make_shared<const mhaviz::io::TensorMap>(
      mhaviz::io::read_tensor_file(path.toStdString()));
}

}  // namespace

QByteArray sessionToJson(const Session& session, const QString& sessionPath) {
  Json j;
  j["format"] = kFormat;
  j["version"] = kSessionFormatVersion;
  j["config"] = Json::parse(mhaviz::io::config_to_json(session.config));
  j["view"] = viewToJson(session.view);
  if (session.tensors) j["tensors"] = tensorsToJson(session, sessionPath);
  if (session.compareA) {
    Json c;
    c["a_config"] = Json::parse(mhaviz::io::config_to_json(session.compareA->config));
    if (!session.compareA->tensors) {
      c["a_tensors"] = nullptr;
    } else if (session.compareA->tensors == session.tensors) {
      c["a_tensors"] = "same";
    } else {
      c["a_tensors"] =
          Json{{"npz_base64", npzBytes(*session.compareA->tensors).toBase64().toStdString()}};
    }
    j["compare"] = c;
  }
  if (!session.workspace.isEmpty()) j["workspace"] = session.workspace.toStdString();
  return QByteArray::fromStdString(j.dump(2) + "\n");
}

Session parseSession(const QByteArray& bytes, const QString& sessionPath) {
  const QString name = displayName(sessionPath);
  Json j;
  try {
    j = Json::parse(bytes.constBegin(), bytes.constEnd());
  } catch (const Json::parse_error& e) {
    std::string what = e.what();
    if (const auto pos = what.find("] "); pos != std::string::npos) what.erase(0, pos + 2);
    fail(QCoreApplication::translate(
             "mhaviz::ui::SessionFile",
             "%1 is damaged and cannot be opened: %2. Fix the file or open another "
             "one.")
             .arg(name, QString::fromStdString(what)));
  }
  if (!j.is_object())
    fail(QCoreApplication::translate("mhaviz::ui::SessionFile",
                                     "%1 is not an mhaviz session or configuration: its top "
                                     "level is not a JSON object.")
             .arg(name));
  Session s;
  if (!j.contains("format")) {
    // A plain configuration file (mhaviz-cli --config) opens as a session without view state.
    s.config = mhaviz::io::parse_config_json(bytes.toStdString(), name.toStdString());
    s.fromConfigFile = true;
    return s;
  }
  if (j["format"] != kFormat) {
    fail(QCoreApplication::translate("mhaviz::ui::SessionFile",
                                     "%1 is not an mhaviz session: \"format\" must be \"%2\".")
             .arg(name, kFormat));
  }
  if (!j.contains("version") || !j["version"].is_number_integer() ||
      j["version"].get<std::int64_t>() < 1) {
    fail(QCoreApplication::translate(
             "mhaviz::ui::SessionFile",
             "%1 has no valid \"version\" (a whole number from 1). The file is damaged.")
             .arg(name));
  }
  const std::int64_t version = j["version"].get<std::int64_t>();
  if (version > kSessionFormatVersion) {
    fail(QCoreApplication::translate(
             "mhaviz::ui::SessionFile",
             "%1 was written by a newer mhaviz (format version %2; this mhaviz reads "
             "up to %3). Update mhaviz to open it.")
             .arg(name)
             .arg(version)
             .arg(kSessionFormatVersion));
  }
  for (const auto& [key, value] : j.items()) {
    if (key != "format" && key != "version" && key != "config" && key != "view" &&
        key != "tensors" && key != "compare" && key != "workspace") {
      fail(QCoreApplication::translate(
               "mhaviz::ui::SessionFile",
               "%1: unknown key \"%2\" (known: format, version, config, view, "
               "tensors, compare, workspace).")
               .arg(name, QString::fromStdString(key)));
    }
  }
  if (!j.contains("config"))
    fail(QCoreApplication::translate("mhaviz::ui::SessionFile", "%1 has no \"config\" object.")
             .arg(name));
  s.config = mhaviz::io::parse_config_json(j["config"].dump(), name.toStdString() + ": config");
  if (j.contains("view")) s.view = viewFromJson(j["view"], name);
  if (j.contains("tensors") && !j["tensors"].is_null()) {
    s.tensors = tensorsFromJson(j["tensors"], name, sessionPath, s);
  }
  if (j.contains("workspace") && !j["workspace"].is_null()) {
    if (!j["workspace"].is_string()) {
      fail(QCoreApplication::translate("mhaviz::ui::SessionFile",
                                       "%1: \"workspace\" must be a name such as \"explore\".")
               .arg(name));
    }
    s.workspace = QString::fromStdString(j["workspace"].get<std::string>());
  }
  if (j.contains("compare") && !j["compare"].is_null()) {
    const Json& c = j["compare"];
    if (!c.is_object() || !c.contains("a_config")) {
      fail(QCoreApplication::translate("mhaviz::ui::SessionFile",
                                       "%1: \"compare\" must be {\"a_config\": {...}, "
                                       "\"a_tensors\": null | \"same\" | {\"npz_base64\": ...}}.")
               .arg(name));
    }
    CompareA a;
    a.config = mhaviz::io::parse_config_json(c["a_config"].dump(),
                                             name.toStdString() + ": compare.a_config");
    const Json t = c.value("a_tensors", Json());
    if (t.is_string() && t.get<std::string>() == "same") {
      a.tensors = s.tensors;
    } else if (!t.is_null()) {
      Session scratch;
      a.tensors = tensorsFromJson(t, name, sessionPath, scratch);
    }
    s.compareA = std::move(a);
  }
  return s;
}

Session readSession(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    fail(QCoreApplication::translate("mhaviz::ui::SessionFile", "Cannot open %1: %2.")
             .arg(path, file.errorString()));
  }
  return parseSession(file.readAll(), path);
}

void writeSession(const Session& session, const QString& path) {
  const QByteArray bytes = sessionToJson(session, path);
  try {
    mhaviz::io::write_file_atomic(path.toStdString(),
                                  std::as_bytes(std::span(bytes.constData(), bytes.size())));
  } catch (const mhaviz::InvalidInput& e) {
    // The core's message starts with the path, which this message names already.
    QString reason = QString::fromUtf8(e.what());
    const QString prefix = path + QStringLiteral(": ");
    if (reason.startsWith(prefix)) reason.remove(0, prefix.size());
    fail(QCoreApplication::translate("mhaviz::ui::SessionFile",
                                     "Cannot save %1: %2. Choose another folder or file name.")
             .arg(path, reason));
  }
}

}  // namespace mhaviz::ui
