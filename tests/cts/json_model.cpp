// Corpus JSON -> TestModel. Everything format-specific lives here; the rest of the runner sees
// TestModels only.

#include "cts/json_model.hpp"

#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "cts/names.hpp"

namespace nnhal::cts {
namespace {

using nlohmann::json;

/// Problems in one model: caught per model and turned into TestModel::conversionError.
class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A float value: a JSON number, or one of the strings SCHEMA.md uses for non-finite values.
/// A list of uint32 from the corpus, as the model structures hold it.
Vector<std::uint32_t> u32_list(const json& j) {
  const auto v = j.get<std::vector<std::uint32_t>>();
  return Vector<std::uint32_t>(v.begin(), v.end());
}

double float_value(const json& v) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
  }
  throw ModelError("not a float value: " + v.dump());
}

/// One corpus value of an operand of `type`, as the double append_element() takes.
double element_value(OperandType type, const json& v) {
  switch (type) {
    case OperandType::FLOAT32:
    case OperandType::TENSOR_FLOAT32:
    case OperandType::FLOAT16:
    case OperandType::TENSOR_FLOAT16:
      return float_value(v);
    case OperandType::BOOL:
    case OperandType::TENSOR_BOOL8:
      if (!v.is_boolean()) throw ModelError("not a bool8 value: " + v.dump());
      return v.get<bool>() ? 1.0 : 0.0;
    default:
      if (v.is_number_unsigned()) return static_cast<double>(v.get<std::uint64_t>());
      if (v.is_number_integer()) return static_cast<double>(v.get<std::int64_t>());
      throw ModelError("not an integer value: " + v.dump());
  }
}

TestOperand convert_operand(const json& j) {
  TestOperand t;
  Operand& op = t.operand;
  const auto& type_name = j.at("type").get_ref<const std::string&>();
  const auto type = operand_type_from_name(type_name);
  if (!type) throw ModelError("unknown operand type " + type_name);
  op.type = *type;
  const auto& lifetime_name = j.at("lifetime").get_ref<const std::string&>();
  const auto lifetime = lifetime_from_name(lifetime_name);
  if (!lifetime) throw ModelError("unknown lifetime " + lifetime_name);
  op.lifetime = *lifetime;
  op.dimensions = u32_list(j.at("dimensions"));
  op.numberOfConsumers = j.at("numberOfConsumers").get<std::uint32_t>();
  op.scale = static_cast<float>(float_value(j.at("scale")));
  op.zeroPoint = j.at("zeroPoint").get<std::int32_t>();
  if (const json& cq = j.at("channelQuant"); !cq.is_null()) {
    SymmPerChannelQuantParams params;
    for (const json& s : cq.at("scales")) params.scales.push_back(static_cast<float>(float_value(s)));
    params.channelDim = cq.at("channelDim").get<std::uint32_t>();
    op.channelQuant = std::move(params);
  }
  t.ignored = j.at("isIgnored").get<bool>();

  const json& data = j.at("data");
  const auto& element = data.at("type").get_ref<const std::string&>();
  if (element != element_type_name(op.type))
    throw ModelError("data.type " + element + " does not fit operand type " + type_name);
  const json& values = data.at("values");
  t.data.reserve(values.size() * element_size(op.type));
  for (const json& v : values)
    if (!append_element(op.type, element_value(op.type, v), t.data))
      throw ModelError("value " + v.dump() + " does not fit " + type_name);
  if (op.lifetime == OperandLifeTime::SUBGRAPH && values.size() != 1)
    throw ModelError("a SUBGRAPH operand needs exactly one value, the referenced graph index");
  return t;
}

TestSubgraph convert_subgraph(const json& j) {
  TestSubgraph sg;
  const json& operands = j.at("operands");
  sg.operands.reserve(operands.size());
  for (std::size_t i = 0; i < operands.size(); ++i) {
    try {
      sg.operands.push_back(convert_operand(operands[i]));
    } catch (const std::exception& e) {
      throw ModelError("operand " + std::to_string(i) + ": " + e.what());
    }
  }
  for (const json& o : j.at("operations")) {
    const auto& name = o.at("type").get_ref<const std::string&>();
    const auto type = operation_from_name(name);
    if (!type) throw ModelError("unknown operation " + name);
    sg.operations.push_back(Operation{*type, u32_list(o.at("inputs")), u32_list(o.at("outputs"))});
  }
  sg.inputIndexes = u32_list(j.at("inputIndexes"));
  sg.outputIndexes = u32_list(j.at("outputIndexes"));
  // The runner indexes main's operands through these lists (request building, comparison).
  for (std::uint32_t k : sg.inputIndexes)
    if (k >= sg.operands.size()) throw ModelError("input index " + std::to_string(k) + " out of range");
  for (std::uint32_t k : sg.outputIndexes)
    if (k >= sg.operands.size()) throw ModelError("output index " + std::to_string(k) + " out of range");
  return sg;
}

void convert_model(const json& j, TestModel& m) {
  m.main = convert_subgraph(j.at("main"));
  const json& referenced = j.at("referenced");
  for (std::size_t i = 0; i < referenced.size(); ++i) {
    try {
      m.referenced.push_back(convert_subgraph(referenced[i]));
    } catch (const std::exception& e) {
      throw ModelError("referenced[" + std::to_string(i) + "]: " + e.what());
    }
  }
  m.relaxed = j.at("isRelaxed").get<bool>();
  m.expectFailure = j.at("expectFailure").get<bool>();
  if (const auto v = j.find("minSupportedVersion"); v != j.end() && v->is_string())
    m.minSupportedVersion = v->get<std::string>();
  m.multinomialTolerance = float_value(j.at("expectedMultinomialDistributionTolerance"));
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CorpusError("cannot open the file");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw CorpusError("cannot read the file");
  return text;
}

}  // namespace

std::vector<TestModel> load_corpus_file(const std::filesystem::path& path, std::string_view filter) {
  json file;
  try {
    file = json::parse(read_file(path));
  } catch (const json::exception& e) {
    throw CorpusError(std::string("not valid JSON: ") + e.what());
  }
  if (!file.is_object() || !file.contains("models") || !file["models"].is_array())
    throw CorpusError("no \"models\" list");

  std::vector<TestModel> models;
  for (const json& j : file["models"]) {
    TestModel m;
    try {
      m.name = j.at("name").get<std::string>();
    } catch (const json::exception& e) {
      throw CorpusError(std::string("a model without a name: ") + e.what());
    }
    if (m.name.find(filter) == std::string::npos) continue;
    try {
      convert_model(j, m);
    } catch (const std::exception& e) {  // ModelError or nlohmann's (missing key, wrong type)
      m.conversionError = std::string("cannot convert the model: ") + e.what();
    }
    models.push_back(std::move(m));
  }
  return models;
}

}  // namespace nnhal::cts
