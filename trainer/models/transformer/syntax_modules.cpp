#include "trainer/models/transformer/syntax_modules.h"

#include <torch/nn/functional/activation.h>

#include <cmath>
#include <functional>
#include <limits>

#include "core/config.h"
#include "trainer/models/transformer/pascal_heads.h"
#include "trainer/models/transformer/sisa_head.h"

namespace synmt {

namespace {
std::string kind_of(const nlohmann::json& spec, const std::string& context) {
  if (!spec.is_object() || !spec.contains("kind") || !spec["kind"].is_string())
    throw ConfigError(context + ": every entry needs a \"kind\"");
  return spec["kind"].get<std::string>();
}

template <class Options>
Options read_options(const nlohmann::json& spec, const std::string& context) {
  return options_from_json<Options>(spec, context);
}

// A kind: its name, how its module is made, and its options with every default filled in.
template <class Base>
struct Kind {
  std::string name;
  std::function<std::shared_ptr<Base>(const nlohmann::json&, const SyntaxModuleSizes&)> create;
  std::function<nlohmann::json(const nlohmann::json&)> complete;
};

// Every kind has this one shape: its module class built from its options struct (as make_family
// for model families). `list` names the config list in error messages.
template <class Base, class Impl, class Options>
Kind<Base> make_kind(const std::string& list, const std::string& name) {
  const std::string context = list + " (" + name + ")";
  return {name,
          [context](const nlohmann::json& j, const SyntaxModuleSizes& s) -> std::shared_ptr<Base> {
            return std::make_shared<Impl>(read_options<Options>(j, context), s);
          },
          [context](const nlohmann::json& j) { return options_to_json(read_options<Options>(j, context)); }};
}

// The explicit lists of kinds: one line each.
const std::vector<Kind<ScoreModifierImpl>>& modifier_kinds() {
  static const std::vector<Kind<ScoreModifierImpl>> kinds = {
      make_kind<ScoreModifierImpl, ParentBiasImpl, ParentBiasOptions>("score_modifiers", "parent_bias"),
      make_kind<ScoreModifierImpl, PascalHeadsImpl, PascalOptions>("score_modifiers", "pascal"),
      make_kind<ScoreModifierImpl, SisaHeadImpl, SisaOptions>("score_modifiers", "sisa"),
  };
  return kinds;
}

const std::vector<Kind<EmbeddingInputImpl>>& input_kinds() {
  static const std::vector<Kind<EmbeddingInputImpl>> kinds = {
      make_kind<EmbeddingInputImpl, LabelEmbeddingImpl, LabelEmbeddingOptions>("embedding_inputs", "label_embedding"),
  };
  return kinds;
}

template <class Kinds>
const auto& find_kind(const Kinds& kinds, const nlohmann::json& spec, const std::string& context) {
  const std::string kind = kind_of(spec, context);
  for (const auto& k : kinds)
    if (k.name == kind) return k;
  std::string known;
  for (const auto& k : kinds) known += (known.empty() ? "" : " | ") + k.name;
  throw ConfigError(context + ": unknown kind '" + kind + "' (" + known + ")");
}
}  // namespace

std::shared_ptr<ScoreModifierImpl> make_score_modifier(const nlohmann::json& spec, const SyntaxModuleSizes& sizes) {
  return find_kind(modifier_kinds(), spec, "model.options.score_modifiers").create(spec, sizes);
}
std::shared_ptr<EmbeddingInputImpl> make_embedding_input(const nlohmann::json& spec, const SyntaxModuleSizes& sizes) {
  return find_kind(input_kinds(), spec, "model.options.embedding_inputs").create(spec, sizes);
}
nlohmann::json complete_score_modifier(const nlohmann::json& spec) {
  return find_kind(modifier_kinds(), spec, "model.options.score_modifiers").complete(spec);
}
nlohmann::json complete_embedding_input(const nlohmann::json& spec) {
  return find_kind(input_kinds(), spec, "model.options.embedding_inputs").complete(spec);
}

void add_parent_attention_loss(const torch::Tensor& head_scores, const SeamContext& context) {
  const auto& parent = context.input.feature(kSourceFeatureParentFirst, "the parent-attention loss");
  const int64_t S = head_scores.size(2);
  auto device = head_scores.device();
  auto real = torch::arange(S, parent.options().device(device)).unsqueeze(0) <
              context.input.lengths.to(device).unsqueeze(1);  // (B, S)
  auto masked = head_scores.masked_fill(real.logical_not().unsqueeze(1), -std::numeric_limits<float>::infinity());
  auto log_p = torch::log_softmax(masked.to(torch::kFloat32), -1);                                   // (B, S, S)
  auto target = log_p.gather(2, parent.to(device).clamp(0, S - 1).unsqueeze(2)).squeeze(2);          // (B, S)
  auto loss = -(target * real.to(target.dtype())).sum();
  auto& slot = context.output->aux_losses["parent_attention"];
  slot = slot.defined() ? slot + loss : loss;
}

ParentBiasImpl::ParentBiasImpl(ParentBiasOptions o, const SyntaxModuleSizes& sizes) : options_(std::move(o)) {
  if (options_.layer < 0 || options_.layer >= sizes.encoder_layers)
    throw ConfigError("parent_bias: no encoder layer " + std::to_string(options_.layer) + " (the model has " +
                      std::to_string(sizes.encoder_layers) + ")");
  heads_ = options_.heads;
  if (heads_.empty())
    for (int64_t h = 0; h < sizes.heads; ++h) heads_.push_back(h);
  for (auto h : heads_)
    if (h < 0 || h >= sizes.heads) throw ConfigError("parent_bias: no head " + std::to_string(h));
  bias = register_parameter("bias", torch::zeros({static_cast<int64_t>(heads_.size())}));
}

torch::Tensor ParentBiasImpl::modify(const torch::Tensor& scores, const torch::Tensor& /*query_input*/, const SeamContext& context) {
  const auto& parent = context.input.feature(kSourceFeatureParentFirst, "score modifier parent_bias");
  const int64_t H = scores.size(1), S = scores.size(3);
  // (B, S, S): 1 where key j is the parent of query i; every sentence reads its own parents
  auto is_parent = torch::one_hot(parent.to(scores.device()).clamp(0, S - 1), S).to(scores.dtype());
  auto index = torch::tensor(heads_, torch::TensorOptions().dtype(torch::kInt64).device(scores.device()));
  auto per_head = torch::zeros({H}, scores.options()).index_add(0, index, bias.to(scores.dtype()));  // (H)
  auto out = scores + per_head.view({1, H, 1, 1}) * is_parent.unsqueeze(1);
  if (options_.loss && context.output) add_parent_attention_loss(out.select(1, heads_.front()), context);
  return out;
}

LabelEmbeddingImpl::LabelEmbeddingImpl(LabelEmbeddingOptions o, const SyntaxModuleSizes& sizes) : options_(std::move(o)) {
  if (sizes.src_labels <= 0)
    throw ConfigError("label_embedding: the source label inventory size (model.options.src_labels) is not set: binarise the pair with its parse");
  if (options_.dim <= 0 || options_.dim >= sizes.model_dim)
    throw ConfigError("label_embedding: dim must be in 1 .. model_dim - 1, got " + std::to_string(options_.dim));
  table = register_module("table", torch::nn::Embedding(sizes.src_labels, options_.dim));
  torch::NoGradGuard no_grad;
  table->weight.normal_(0.0, 1.0);  // the unit scale of the sqrt(d)-scaled token embeddings it replaces
}

torch::Tensor LabelEmbeddingImpl::apply(const torch::Tensor& embedded, const SeamContext& context) {
  const auto& label = context.input.feature(kSourceFeatureLabel, "embedding input label_embedding");
  const int64_t D = embedded.size(2), k = options_.dim;
  return torch::cat({embedded.narrow(2, 0, D - k), table(label.to(embedded.device())).to(embedded.dtype())}, 2);
}

}  // namespace synmt
