#pragma once
// mhaviz-cli: the engine without a window (run, export, shapes, torch).

namespace mhaviz::cli {

/// Runs mhaviz-cli with the process's arguments and returns its exit code: 0 on success, 1 when
/// an input cannot be used (one `error: ...` line on stderr), 2 on a usage error. Creates the
/// QCoreApplication (a QApplication, offscreen unless QT_QPA_PLATFORM says otherwise, for
/// `export`); call once, from main(), on the main thread.
int runCli(int argc, char* argv[]);

}  // namespace mhaviz::cli
