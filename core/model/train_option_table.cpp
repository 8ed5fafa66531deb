#include "model/train_option_table.h"

#include "model/attention_kind.h"
#include "model/config_error.h"
#include "model/preset.h"
#include "model/train_choices.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

// A row's form label, for lupdate: widgets/CMakeLists.txt reads this file with
// MEMSCOPE_TRANSLATE_NOOP as an alias of QT_TRANSLATE_NOOP, so the labels are translated in the
// context "TrainOptionTable" (TrainOptionFields::retranslate). Core keeps the English.
#define MEMSCOPE_TRANSLATE_NOOP(context, text) text

namespace memscope {

namespace {

// A row, told field by field (C++17 has no designated initializers).
struct RowBuilder {
    TrainOptionRow r;
    RowBuilder(const char* key, const char* flag, OptionType type) {
        r.key = key;
        r.flag = flag;
        r.type = type;
    }
    RowBuilder& range(int64_t lo, int64_t hi) {
        r.min = lo;
        r.max = hi;
        return *this;
    }
    RowBuilder& realRange(double above, double at_most) {
        r.real_min = above;
        r.real_max = at_most;
        return *this;
    }
    RowBuilder& alias(const char* spelling) {
        r.aliases.emplace_back(spelling);
        return *this;
    }
    RowBuilder& negation(const char* spelling) {
        r.negation = spelling;
        return *this;
    }
    RowBuilder& text(const char* label, const char* help) {
        r.label = label;
        r.help = help;
        return *this;
    }
    RowBuilder& tip(const char* text) {
        r.tip = text;
        return *this;
    }
    RowBuilder& choiceText(const char* name, const char* text) {
        r.choice_texts.emplace_back(name, text);
        return *this;
    }
    RowBuilder& zero(const char* text) {
        r.zero_text = text;
        return *this;
    }
    RowBuilder& needs(const char* key, const char* value) {
        r.needs_key = key;
        r.needs_value = value;
        return *this;
    }
    RowBuilder& planner(const char* yaml_name) {
        r.planner_name = yaml_name;
        return *this;
    }
    RowBuilder& sweep() {
        r.sweep = true;
        return *this;
    }
    RowBuilder& forms(FormGroup run_panel, FormGroup planner_page) {
        r.run_panel = run_panel;
        r.planner_page = planner_page;
        return *this;
    }
    RowBuilder& choices(std::vector<std::string> (*names)()) {
        r.choices = names;
        return *this;
    }
    operator TrainOptionRow() const { return r; }  // NOLINT: a builder turns into its row
};

using T = OptionType;
using G = FormGroup;

std::vector<TrainOptionRow> makeRows() {
    // Past these ranges, tensors stop fitting any machine long before (SizeLimits guards the
    // bytes).
    return {
        RowBuilder("preset", "--preset", T::Choice)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "&Preset:"),
                  "Model and problem size preset")
            .tip(MEMSCOPE_TRANSLATE_NOOP(
                "TrainOptionTable",
                "A named model shape with the batch and sequence length of its document"))
            .choices(Preset::names)
            .planner("preset")
            .sweep()
            .forms(G::Model, G::Model),
        RowBuilder("hidden_dim", "--hidden-dim", T::Integer)
            .alias("--d-model")
            .range(1, 65536)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "&Hidden size:"),
                  "Model hidden dimension")
            .tip(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Model width"))
            .planner("hidden_dim")
            .forms(G::Model, G::Model),
        RowBuilder("num_layers", "--num-layers", T::Integer)
            .alias("--n-layers")
            .range(1, 1024)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "&Layers:"),
                  "Number of transformer layers")
            .tip(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Transformer blocks"))
            .planner("num_layers")
            .forms(G::Model, G::Model),
        RowBuilder("num_heads", "--num-heads", T::Integer)
            .alias("--n-heads")
            .range(1, 1024)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "&Heads:"),
                  "Number of attention heads")
            .tip(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Attention heads"))
            .planner("num_heads")
            .forms(G::Model, G::Model),
        RowBuilder("num_kv_heads", "--num-kv-heads", T::Integer)
            .alias("--n-kv-heads")
            .range(1, 1024)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "&KV heads:"),
                  "Number of key/value heads (GQA)")
            .tip(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable",
                                         "Key/value heads for grouped-query attention"))
            .planner("num_kv_heads")
            .forms(G::Model, G::Model),
        RowBuilder("intermediate_dim", "--intermediate-dim", T::Integer)
            .alias("--d-ff")
            .range(1, 1 << 20)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "&Intermediate size:"),
                  "Feed-forward intermediate size")
            .tip(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Feed-forward width"))
            .planner("intermediate_dim")
            .forms(G::Model, G::Model),
        RowBuilder("vocab_size", "--vocab-size", T::Integer)
            .range(2, 1 << 22)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "&Vocabulary:"), "Vocabulary size")
            .tip(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Vocabulary size"))
            .planner("vocab_size")
            .forms(G::Model, G::Model),
        RowBuilder("max_seq_len", "--max-seq-len", T::Integer)
            .range(1, 1 << 20)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Max sequence:"),
                  "Longest sequence the model supports")
            .tip(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Longest sequence the model accepts"))
            .forms(G::Model, G::None),
        RowBuilder("rope_theta", "--rope-theta", T::Real)
            .realRange(0, 1e12)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "RoPE theta:"),
                  "Base of the rotary embeddings' frequencies"),
        RowBuilder("norm_eps", "--norm-eps", T::Real)
            .realRange(0, 1)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Norm epsilon:"),
                  "Epsilon of the RMS norms"),
        RowBuilder("tie_embeddings", "--tie-embeddings", T::Flag)
            .negation("--no-tie-embeddings")
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Tied embeddings:"),
                  "Share embedding and LM head weights")
            .tip(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable",
                                         "Share the embedding and output weights"))
            .planner("tie_embeddings")
            .forms(G::Model, G::Model),
        RowBuilder("batch_size", "--batch-size", T::Integer)
            .range(1, 1 << 16)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "&Batch size:"), "Samples per batch")
            .tip(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Sequences per step"))
            .planner("batch_size")
            .sweep()
            .forms(G::Run, G::Run),
        RowBuilder("seq_len", "--seq-len", T::Integer)
            .alias("--context-length")
            .range(1, 1 << 20)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "&Sequence length:"),
                  "Sequence length")
            .tip(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Tokens per sequence"))
            .planner("sequence_length")
            .sweep()
            .forms(G::Run, G::Run),
        RowBuilder("num_steps", "--num-steps", T::Integer)
            .range(1, 1000000)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "S&teps:"),
                  "Timed steps (default 50)")
            .tip(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Timed steps"))
            .sweep()
            .forms(G::Run, G::None),
        RowBuilder("warmup_steps", "--warmup-steps", T::Integer)
            .range(0, 1000000)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "&Warmup steps:"),
                  "Untimed steps run first (default 0)")
            .tip(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Steps run first and not timed"))
            .forms(G::Run, G::None),
        RowBuilder("profile_type", "--profile-type", T::Choice)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Profile:"),
                  "training (forward+backward+step) or forward (also 'inference': torch.no_grad, "
                  "activations freed once used; not a forward with autograd on)")
            .tip(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable",
                                         "Full training steps, or forward passes only"))
            .choiceText("training",
                        MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable",
                                                "Training (forward, backward, optimizer)"))
            .choiceText("forward", MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Forward only"))
            .choices(profileTypeNames)
            .planner("profile")
            .sweep()
            .forms(G::Run, G::Run),
        RowBuilder("optimizer", "--optimizer", T::Choice)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "&Optimizer:"), "adamw or sgd")
            .tip(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "AdamW or SGD"))
            .choiceText("adamw", MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "AdamW"))
            .choiceText("sgd", MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "SGD with momentum"))
            .needs("profile_type", "training")
            .choices(optimizerKindNames)
            .planner("optimizer")
            .forms(G::Run, G::Run),
        RowBuilder("learning_rate", "--learning-rate", T::Real)
            .realRange(0, 10)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Learning rate:"),
                  "Optimizer learning rate (default 1e-4)")
            .tip(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Optimizer learning rate"))
            .needs("profile_type", "training")
            .forms(G::Run, G::None),
        RowBuilder("weight_decay", "--weight-decay", T::Real)
            .realRange(-1, 10)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Weight decay:"),
                  "AdamW's weight decay (default 0.01)"),
        RowBuilder("sgd_momentum", "--sgd-momentum", T::Real)
            .realRange(-1, 1)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Momentum:"),
                  "SGD's momentum (default 0.9)"),
        RowBuilder("seed", "--seed", T::Integer)
            .range(0, std::numeric_limits<int32_t>::max())
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Seed:"),
                  "Random seed for weights and data (default 42)")
            .tip(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Seed of the weights and data"))
            .forms(G::Run, G::None),
        RowBuilder("dtype", "--dtype", T::Choice)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "&Dtype:"),
                  "fp32, or bf16 / fp16 autocast")
            .tip(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable",
                                         "fp32, or bf16/fp16 autocast with fp32 master weights"))
            .choiceText("bf16", MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "bf16 (autocast)"))
            .choiceText("fp16", MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "fp16 (autocast)"))
            .choices(dtypeNames)
            .planner("precision")
            .sweep()
            .forms(G::Numerics, G::Run),
        RowBuilder("attention", "--attention", T::Choice)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "&Attention:"),
                  "eager, fused, sdpa or memory-efficient")
            .tip(MEMSCOPE_TRANSLATE_NOOP(
                "TrainOptionTable",
                "How attention is computed; all variants compute the same function"))
            .choiceText("eager",
                        MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Eager (workshop baseline)"))
            .choiceText("fused", MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Fused projections"))
            .choiceText("sdpa", MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable",
                                                        "Scaled dot-product (LibTorch)"))
            .choiceText("memory-efficient",
                        MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Memory-efficient (chunked)"))
            .choices(attentionKindNames)
            .planner("attention")
            .sweep()
            .forms(G::Numerics, G::Run),
        RowBuilder("checkpointing", "--checkpointing", T::Choice)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "&Checkpointing:"),
                  "Activation checkpointing: none or per-block")
            .tip(MEMSCOPE_TRANSLATE_NOOP(
                "TrainOptionTable",
                "Recompute each block's activations in backward instead of keeping them"))
            .choiceText("none", MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "None"))
            .choiceText("per-block", MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Per block"))
            .choices(checkpointingNames)
            .planner("checkpointing")
            .sweep()
            .forms(G::Numerics, G::Run),
        RowBuilder("device", "--device", T::Text)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "De&vice:"), "cpu, cuda or cuda:N")
            .tip(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Where the run executes"))
            .forms(G::Device, G::None),
        RowBuilder("threads", "--threads", T::Integer)
            .range(0, 1024)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "&Threads:"),
                  "CPU threads (default: all cores, fewer while other processes keep cores busy)")
            .tip(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable",
                                         "CPU threads for LibTorch (%1). All cores: fewer while "
                                         "other programs, or this window, keep a core busy. The "
                                         "default leaves a core to this window."))
            .forms(G::Device, G::None),
        RowBuilder("device_memory_limit", "--device-memory-limit", T::Bytes)
            .range(0, int64_t(1) << 60)
            .text(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "Capacity &limit:"),
                  "Make the CPU behave like a device of this size (e.g. 512MiB): allocations "
                  "past it fail with an out-of-memory error")
            .tip(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable",
                                         "Emulate a device with this much memory, for example "
                                         "512MiB or 2GiB; the run stops with an out-of-memory "
                                         "point when it is exceeded. Empty: no limit"))
            .zero(MEMSCOPE_TRANSLATE_NOOP("TrainOptionTable", "no limit"))
            .forms(G::Device, G::None),
    };
}

std::string_view undashed(std::string_view name) {
    while (!name.empty() && name.front() == '-') {
        name.remove_prefix(1);
    }
    return name;
}

// "--hidden-dim" and "hidden_dim" name the same option.
bool sameName(std::string_view a, std::string_view b) {
    a = undashed(a);
    b = undashed(b);
    if (a.size() != b.size()) {
        return false;
    }
    for (size_t i = 0; i < a.size(); ++i) {
        const char x = a[i] == '-' ? '_' : a[i];
        const char y = b[i] == '-' ? '_' : b[i];
        if (x != y) {
            return false;
        }
    }
    return true;
}

// A number as a range message shows it: 0, 10, 1e+12, 0.0001.
std::string numberText(double value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

// "--batch-size: must be between 1 and 65536, got 100000": what every way in says of a value
// outside the row's range.
ConfigError rangeError(const TrainOptionRow& row, const std::string& got) {
    if (row.type == OptionType::Real) {
        return ConfigError(row.flag, "must be above " + numberText(row.real_min) + " and at most " +
                                         numberText(row.real_max) + ", got " + got);
    }
    std::string low = std::to_string(row.min);
    if (row.min == 0 && row.zero_text != nullptr) {
        low += std::string(" (") + row.zero_text + ")";  // "0 (no limit)"
    }
    return ConfigError(row.flag, "must be between " + low + " and " + std::to_string(row.max) +
                                     (row.type == OptionType::Bytes ? " bytes" : "") + ", got " +
                                     got);
}

}  // namespace

void TrainOptionRow::checkRange(int64_t value) const {
    if (type == OptionType::Real) {
        checkRange(double(value));
    } else if ((type == OptionType::Integer || type == OptionType::Bytes) &&
               (value < min || value > max)) {
        throw rangeError(*this, std::to_string(value));
    }
}

void TrainOptionRow::checkRange(double value) const {
    if (type == OptionType::Integer || type == OptionType::Bytes) {
        // JSON may write a whole number as 8.0; 8.5 is no count of anything.
        if (std::trunc(value) != value) {
            throw ConfigError(flag, "'" + numberText(value) + "' is not a whole number");
        }
        if (std::fabs(value) >= 9.2e18) {
            throw rangeError(*this, numberText(value));  // past every range, and int64_t's
        }
        checkRange(int64_t(value));
    } else if (type == OptionType::Real && !(value > real_min && value <= real_max)) {
        throw rangeError(*this, numberText(value));
    }
}

const std::vector<TrainOptionRow>& TrainOptionTable::rows() {
    static const std::vector<TrainOptionRow> table = makeRows();
    return table;
}

const TrainOptionRow& TrainOptionTable::row(std::string_view key) {
    for (const TrainOptionRow& r : rows()) {
        if (key == r.key) {
            return r;
        }
    }
    throw std::logic_error("no training option " + std::string(key));
}

const TrainOptionRow* TrainOptionTable::find(std::string_view name) {
    for (const TrainOptionRow& r : rows()) {
        if (sameName(name, r.key) || sameName(name, r.flag) ||
            (r.planner_name != nullptr && sameName(name, r.planner_name)) ||
            (r.negation != nullptr && sameName(name, r.negation))) {
            return &r;
        }
        for (const std::string& alias : r.aliases) {
            if (sameName(name, alias)) {
                return &r;
            }
        }
    }
    return nullptr;
}

std::string TrainOptionTable::flag(std::string_view key) {
    return row(key).flag;
}

std::string TrainOptionTable::argument(std::string_view key, const std::string& value) {
    return std::string(row(key).flag) + " " + value;
}

}  // namespace memscope
