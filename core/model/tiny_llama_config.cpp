#include "model/tiny_llama_config.h"

#include "model/config_error.h"
#include "model/train_option_table.h"

namespace memscope {

namespace {

std::string flagOf(const char* key) {
    return TrainOptionTable::flag(key);
}

void requirePositive(const char* key, int64_t value) {
    if (value <= 0) {
        throw ConfigError(flagOf(key), "must be positive, got " + std::to_string(value));
    }
}

}  // namespace

void TinyLlamaConfig::validate() const {
    requirePositive("vocab_size", vocab_size);
    requirePositive("hidden_dim", hidden_dim);
    requirePositive("num_layers", n_layers);
    requirePositive("num_heads", n_heads);
    requirePositive("num_kv_heads", n_kv_heads);
    requirePositive("intermediate_dim", intermediate_dim);
    requirePositive("max_seq_len", max_seq_len);
    if (hidden_dim % n_heads != 0) {
        throw ConfigError(flagOf("num_heads"), std::to_string(n_heads) + " heads do not divide " +
                                                   flagOf("hidden_dim") + " " +
                                                   std::to_string(hidden_dim));
    }
    if (n_heads % n_kv_heads != 0) {
        throw ConfigError(flagOf("num_kv_heads"),
                          std::to_string(n_kv_heads) + " KV heads do not divide " +
                              flagOf("num_heads") + " " + std::to_string(n_heads));
    }
    if (headDim() % 2 != 0) {
        throw ConfigError(flagOf("num_heads"),
                          "head_dim = hidden_dim / num_heads = " + std::to_string(headDim()) +
                              " is odd; rotary embeddings need an even head_dim");
    }
    if (!(rope_theta > 0.0)) {
        throw ConfigError(flagOf("rope_theta"), "must be positive");
    }
    if (!(norm_eps > 0.0)) {
        throw ConfigError(flagOf("norm_eps"), "must be positive");
    }
}

void TinyLlamaConfig::validateSequence(int64_t seq_len) const {
    requirePositive("seq_len", seq_len);
    if (seq_len > max_seq_len) {
        throw ConfigError(flagOf("seq_len"), std::to_string(seq_len) + " is longer than " +
                                                 flagOf("max_seq_len") + " " +
                                                 std::to_string(max_seq_len));
    }
}

bool TinyLlamaConfig::sameShape(const TinyLlamaConfig& other) const {
    return vocab_size == other.vocab_size && hidden_dim == other.hidden_dim &&
           n_layers == other.n_layers && n_heads == other.n_heads &&
           n_kv_heads == other.n_kv_heads && intermediate_dim == other.intermediate_dim &&
           tie_embeddings == other.tie_embeddings;
}

bool operator==(const TinyLlamaConfig& a, const TinyLlamaConfig& b) {
    return a.sameShape(b) && a.max_seq_len == b.max_seq_len && a.rope_theta == b.rope_theta &&
           a.norm_eps == b.norm_eps;
}

}  // namespace memscope
