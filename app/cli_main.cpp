// mhaviz-cli: the engine without a window. Everything it runs lives in mhaviz::cli.

#include "cli/cli_app.hpp"

int main(int argc, char* argv[]) { return mhaviz::cli::runCli(argc, argv); }
