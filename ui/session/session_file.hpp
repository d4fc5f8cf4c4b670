#pragma once
// The session file (.mhaviz.json): the configuration file object exactly as
// mhaviz::io::config_to_json writes it, the view state and, optionally, the user's tensors
// (a referenced .npz/.safetensors file or an embedded base64 .npz). Files from others are data
// only: nothing in them is executed, and a referenced tensors file is only read.

#include <QString>
#include <memory>
#include <optional>

#include "document/session_origin.hpp"
#include "mhaviz/core/base/tensor_map.hpp"
#include "mhaviz/core/spec/config.hpp"
#include "stages/view_options.hpp"

namespace mhaviz::ui {

/// Newest session format version this build reads and the one it writes. Version 2 added the
/// optional "workspace"; version 1 files open as before.
inline constexpr int kSessionFormatVersion = 2;

/// Compare mode's pinned A (window: Compare > Pin current settings as A).
struct CompareA {
  mhaviz::Config config;
  /// A's tensors; null: generated. Written as "same" when they are B's (Session::tensors),
  /// else embedded.
  std::shared_ptr<const mhaviz::io::TensorMap> tensors;
  bool operator==(const CompareA&) const = default;
};

struct Session {
  mhaviz::Config config;
  ViewOptions view;
  /// The user's tensors (PyTorch names); null when everything is generated from the config.
  std::shared_ptr<const mhaviz::io::TensorMap> tensors;
  /// Absolute path of the tensors file they came from; empty when embedded or none.
  QString tensorsFile;
  /// Write the tensors into the session (base64 .npz) instead of referencing tensorsFile.
  bool embedTensors = false;
  /// True when the file read was a plain configuration file (no view state): saving then asks
  /// for a session file name instead of overwriting the configuration.
  bool fromConfigFile = false;
  /// Compare mode's A when something is pinned (session key "compare").
  std::optional<CompareA> compareA;
  /// The window's workspace the session was saved in ("explore", "compare"...; session key
  /// "workspace"); empty when not recorded (version 1 files, configuration files). A name this
  /// mhaviz does not know is kept as it is and ignored by the window.
  QString workspace;
  /// The model layer the session is (the model view); never written to a file: a saved layer
  /// is a session of its own.
  SessionOrigin origin;
};

/// The JSON text of `session`. A referenced tensors file is written relative to the directory
/// of `sessionPath` when it lies inside it, else absolute. Throws InvalidInput when tensors
/// must be embedded but cannot be encoded.
QByteArray sessionToJson(const Session& session, const QString& sessionPath);

/// Parses session text; `sessionPath` names the file in messages and anchors relative tensor
/// paths. Throws InvalidInput for a damaged file (with the JSON error's line and column), a
/// file of another format, a newer format version, a bad config or view, or tensors that
/// cannot be read.
Session parseSession(const QByteArray& bytes, const QString& sessionPath);

/// Reads and parses a session file. Throws InvalidInput.
Session readSession(const QString& path);

/// Writes `session` atomically (io::write_file_atomic): on any failure the previous file is
/// unchanged. Throws InvalidInput naming the file and the reason.
void writeSession(const Session& session, const QString& path);

}  // namespace mhaviz::ui
