// check_layers ROOT: reads the layers and their arrows from ROOT/cmake/layers.txt and every
// #include "..." of the C++ files in their folders, and fails (exit 1), naming file and line, on
// any include that no arrow allows. A layer of the core (folder core/src/<name>) also owns its
// public headers, core/include/mhaviz/core/<name>/; its sources include the private headers of
// the core's other layers as "<name>/file.hpp" (from core/src). The tests of a ui layer
// (tests/ui/<layer>/ for ui/<layer>) are held to that layer's arrows too. Also fails when the
// arrows go upwards (a layer may only use layers listed above it), when a source file under ui/,
// tests/ui/ or core/ belongs to no layer (under core/: to no core/src/<name> layer), or when
// folders include each other in a loop (also inside a layer).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Layer {
  std::string name;
  fs::path folder;   // relative to the root
  fs::path headers;  // a core layer's public headers (core/include/mhaviz/core/<name>), or empty
  std::set<std::string> allowed;
  bool tests = false;  // tests/ui/<layer>: the layer's tests, which may include the layer itself
};

/// The test folder of every ui layer (tests/ui/<layer>/), under the layer's name and arrows.
void addTestLayers(std::vector<Layer>& layers) {
  const std::size_t count = layers.size();
  for (std::size_t i = 0; i < count; ++i) {
    if (layers[i].folder.begin() == layers[i].folder.end() || *layers[i].folder.begin() != "ui") {
      continue;
    }
    Layer tests = layers[i];
    tests.folder = fs::path("tests") / layers[i].folder;
    tests.allowed.insert(layers[i].name);
    tests.tests = true;
    layers.push_back(tests);
  }
}

std::vector<Layer> readLayers(const fs::path& file, std::vector<std::string>& problems) {
  std::ifstream in(file);
  if (!in) {
    problems.push_back(file.string() + ": cannot read the layers file");
    return {};
  }
  std::vector<Layer> layers;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    Layer layer;
    std::string folder;
    words >> layer.name >> folder;
    layer.folder = folder;
    if (folder.rfind("core/src/", 0) == 0) {
      layer.headers = fs::path("core/include/mhaviz/core") / layer.folder.filename();
    }
    for (std::string dep; words >> dep;) {
      if (dep == "-") continue;
      const bool above =
          std::any_of(layers.begin(), layers.end(), [&](const Layer& l) { return l.name == dep; });
      if (!above) {
        problems.push_back(file.string() + ":" + std::to_string(number) + ": layer " + layer.name +
                           " may use " + dep +
                           ", which is not a layer listed above it (arrows go down only)");
      }
      layer.allowed.insert(dep);
    }
    layers.push_back(layer);
  }
  // A layer whose folder holds the folders of other layers (core holds core/src/<name>) is all
  // of them: a layer that may use it may use each of them.
  for (Layer& layer : layers) {
    for (const std::string& dep : std::set<std::string>(layer.allowed)) {
      const auto whole =
          std::find_if(layers.begin(), layers.end(), [&](const Layer& l) { return l.name == dep; });
      if (whole == layers.end()) continue;
      const std::string prefix = whole->folder.generic_string() + "/";
      for (const Layer& part : layers) {
        if (part.folder.generic_string().rfind(prefix, 0) == 0) layer.allowed.insert(part.name);
      }
    }
  }
  return layers;
}

bool isSource(const fs::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".cpp" || ext == ".hpp" || ext == ".h";
}

/// The layer whose folder holds `path` (relative to the root), or nullptr.
const Layer* layerOf(const std::vector<Layer>& layers, const fs::path& path) {
  const Layer* best = nullptr;
  std::size_t bestLength = 0;
  const std::string p = path.lexically_normal().generic_string();
  for (const Layer& l : layers) {
    for (const fs::path& folder : {l.folder, l.headers}) {
      if (folder.empty()) continue;
      const std::string f = folder.generic_string() + "/";
      if (p.rfind(f, 0) == 0 && f.size() > bestLength) {
        best = &l;
        bestLength = f.size();
      }
    }
  }
  return best;
}

/// The file an include names, relative to the root: "mhaviz/core/..." is under
/// core/include, a path relative to the including file, in the core also a path under core/src
/// (another core layer's private header), "<layer>/file.hpp" a file of that layer's folder.
/// Empty when it names no file of the tree. A generated core header (mhaviz/core/version.hpp)
/// counts as a file of core/include.
fs::path resolveInclude(const std::vector<Layer>& layers, const fs::path& root,
                        const fs::path& from, const std::string& include) {
  if (include.rfind("mhaviz/core/", 0) == 0) return fs::path("core/include") / include;
  const fs::path beside = (from.parent_path() / include).lexically_normal();
  if (fs::exists(root / beside)) return beside;
  if (*from.begin() == "core" && fs::exists(root / "core/src" / include)) {
    return (fs::path("core/src") / include).lexically_normal();
  }
  const auto slash = include.find('/');
  if (slash != std::string::npos) {
    const std::string first = include.substr(0, slash);
    for (const Layer& l : layers) {
      const fs::path file = l.folder / include.substr(slash + 1);
      if (l.name == first && fs::exists(root / file)) return file;
    }
  }
  // Tests include the shared test support under tests/ as "<folder>/file.hpp".
  if (*from.begin() == "tests" && fs::exists(root / "tests" / include)) {
    return fs::path("tests") / include;
  }
  return {};
}

/// Folders that include each other in a loop: each loop once, as "a -> b -> a".
std::vector<std::string> folderLoops(const std::map<std::string, std::set<std::string>>& edges) {
  std::vector<std::string> loops;
  std::map<std::string, int> state;  // 0 new, 1 on the path, 2 done
  std::vector<std::string> path;
  std::function<void(const std::string&)> visit = [&](const std::string& folder) {
    state[folder] = 1;
    path.push_back(folder);
    const auto it = edges.find(folder);
    if (it != edges.end()) {
      for (const std::string& next : it->second) {
        if (state[next] == 1) {
          std::string loop;
          const auto start = std::find(path.begin(), path.end(), next);
          for (auto p = start; p != path.end(); ++p) loop += *p + " -> ";
          loops.push_back(loop + next);
        } else if (state[next] == 0) {
          visit(next);
        }
      }
    }
    path.pop_back();
    state[folder] = 2;
  };
  for (const auto& [folder, targets] : edges) {
    if (state[folder] == 0) visit(folder);
  }
  return loops;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: check_layers REPOSITORY_ROOT\n";
    return 2;
  }
  const fs::path root = argv[1];
  std::vector<std::string> problems;
  std::vector<Layer> layers = readLayers(root / "cmake/layers.txt", problems);
  addTestLayers(layers);
  const std::regex includeLine(R"(^\s*#\s*include\s*"([^"]+)\")");
  int files = 0;
  int includes = 0;
  std::map<std::string, std::set<std::string>> folders;  // folder -> folders it includes from
  for (const Layer& layer : layers) {
    if (!fs::is_directory(root / layer.folder)) {
      if (layer.tests) continue;  // a layer without tests of its own
      problems.push_back("cmake/layers.txt: the folder " + layer.folder.string() + " of layer " +
                         layer.name + " does not exist");
      continue;
    }
    std::vector<fs::path> sources;
    for (const fs::path& folder : {layer.folder, layer.headers}) {
      if (folder.empty() || !fs::is_directory(root / folder)) continue;
      for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
        if (entry.is_regular_file() && isSource(entry.path())) sources.push_back(entry.path());
      }
    }
    std::sort(sources.begin(), sources.end());
    for (const fs::path& source : sources) {
      const fs::path rel = fs::relative(source, root);
      if (layerOf(layers, rel) != &layer) continue;  // a sub-folder that is a layer of its own
      ++files;
      std::ifstream in(source);
      std::string line;
      int number = 0;
      while (std::getline(in, line)) {
        ++number;
        std::smatch m;
        if (!std::regex_search(line, m, includeLine)) continue;
        const std::string include = m[1];
        if (include.size() > 4 && include.substr(include.size() - 4) == ".moc") continue;
        ++includes;
        const std::string where = rel.generic_string() + ":" + std::to_string(number) + ": ";
        const fs::path file = resolveInclude(layers, root, rel, include);
        const Layer* target = file.empty() ? nullptr : layerOf(layers, file);
        if (!file.empty() && file.parent_path() != rel.parent_path()) {
          folders[rel.parent_path().generic_string()].insert(file.parent_path().generic_string());
        }
        // A test may include the shared test support outside the layers (tests/catalogue).
        const bool testSupport = layer.tests && target == nullptr && !file.empty();
        if (target == nullptr && !testSupport) {
          problems.push_back(where + "includes \"" + include +
                             "\", which is in no layer's folder; write it as \"<layer>/file.hpp\"");
        } else if (target != nullptr && target != &layer &&
                   layer.allowed.count(target->name) == 0) {
          std::string allowed;
          for (const std::string& a : layer.allowed) allowed += (allowed.empty() ? "" : ", ") + a;
          problems.push_back(where + "includes \"" + include + "\" (layer " + target->name +
                             "), but layer " + layer.name + " may include only " +
                             (allowed.empty() ? std::string("its own files") : allowed) +
                             " (cmake/layers.txt)");
        }
      }
    }
  }
  // Every C++ file under ui/ belongs to a layer, every test under tests/ui/ to a layer's test
  // folder, and every C++ file under core/ to a layer of the core (not to the whole core, whose
  // folder is core/).
  for (const std::string top : {"ui", "tests/ui", "core"}) {
    if (!fs::is_directory(root / top)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(root / top)) {
      const fs::path rel = fs::relative(entry.path(), root);
      if (!entry.is_regular_file() || !isSource(rel)) continue;
      const Layer* layer = layerOf(layers, rel);
      if (top == "core" && layer != nullptr && layer->folder == "core") layer = nullptr;
      if (layer != nullptr) continue;
      if (top == "ui") {
        problems.push_back(rel.generic_string() +
                           ": in no layer's folder; add the folder to cmake/layers.txt");
      } else if (top == "tests/ui") {
        problems.push_back(rel.generic_string() +
                           ": in no layer's test folder; move it to tests/ui/<layer>/ of the "
                           "lowest layer it exercises");
      } else {
        problems.push_back(rel.generic_string() +
                           ": in no layer of the core; move it to core/src/<layer>/ (or its "
                           "public header to core/include/mhaviz/core/<layer>/), or add the "
                           "layer to cmake/layers.txt");
      }
    }
  }
  for (const std::string& loop : folderLoops(folders)) {
    problems.push_back("folders include each other in a loop: " + loop);
  }
  for (const std::string& p : problems) std::cout << p << '\n';
  const auto ownLayers =
      std::count_if(layers.begin(), layers.end(), [](const Layer& l) { return !l.tests; });
  std::cout << "layers: " << ownLayers << " layers, " << folders.size() << " folders, " << files
            << " files, " << includes << " includes checked, " << problems.size() << " problems\n";
  return problems.empty() ? 0 : 1;
}
