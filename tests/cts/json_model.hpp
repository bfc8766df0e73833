#pragma once
/// \file
/// Reading the conformance corpus (shared/cts/SCHEMA.md "File format") into TestModels.

#include <filesystem>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "cts/test_model.hpp"

namespace nnhal::cts {

/// A corpus file that cannot be used at all (unreadable, not JSON, no "models" list).
class CorpusError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Reads one corpus file, parsing it once, and converts the models whose name contains
/// `filter` (all of them for an empty filter), in file order. A model that cannot be converted
/// is still returned, with TestModel::conversionError set, so that it is reported as a failure
/// rather than silently dropped. Throws CorpusError for file-level problems.
std::vector<TestModel> load_corpus_file(const std::filesystem::path& path, std::string_view filter);

}  // namespace nnhal::cts
