// Model behaviour on tiny configurations: attention variants agree, checkpointing gives the same
// gradients, training lowers the loss, forward-only builds no gradients.

#include "model/chunked_attention_function.h"
#include "model/tiny_llama.h"
#include "torch_compat.h"

#include <torch/torch.h>

#include <QtTest/QtTest>

using namespace memscope;

namespace {

TinyLlamaConfig tinyConfig() {
    TinyLlamaConfig c;
    c.vocab_size = 61;
    c.hidden_dim = 32;
    c.n_layers = 2;
    c.n_heads = 4;
    c.n_kv_heads = 2;
    c.intermediate_dim = 64;
    c.max_seq_len = 128;
    return c;
}

struct Result {
    torch::Tensor logits;
    double loss = 0;
    std::vector<torch::Tensor> grads;
};

Result runOnce(const TinyLlamaConfig& c, AttentionKind kind, bool checkpoint, int64_t seq,
               uint64_t seed = 7) {
    torch::manual_seed(seed);
    TinyLlama model(c, kind, checkpoint);
    auto gen_tokens = torch::randint(0, c.vocab_size, {2, seq + 1});
    auto inputs = gen_tokens.narrow(1, 0, seq).contiguous();
    auto labels = gen_tokens.narrow(1, 1, seq).contiguous();
    Result r;
    r.logits = model->forward(inputs);
    auto loss = model->loss(r.logits, labels);
    loss.backward();
    r.loss = loss.item<double>();
    for (const auto& p : model->parameters()) {
        r.grads.push_back(p.grad().clone());
    }
    r.logits = r.logits.detach();
    return r;
}

bool close(const torch::Tensor& a, const torch::Tensor& b, double tol = 1e-5) {
    return torch::allclose(a, b, tol, tol);
}

double maxAbsDiff(const torch::Tensor& a, const torch::Tensor& b) {
    return (a - b).abs().max().item<double>();
}

// Plain causal attention with grouped heads repeated, as the reference.
torch::Tensor referenceAttention(const torch::Tensor& q, const torch::Tensor& k,
                                 const torch::Tensor& v) {
    const auto rep = q.size(1) / k.size(1);
    auto kf = k.repeat_interleave(rep, 1), vf = v.repeat_interleave(rep, 1);
    const auto S = q.size(2);
    auto scores = torch::matmul(q, kf.transpose(-2, -1)) / std::sqrt(double(q.size(3)));
    auto mask = torch::full({S, S}, -std::numeric_limits<float>::infinity()).triu(1);
    return torch::matmul(torch::softmax(scores + mask, -1), vf);
}

}  // namespace

class TestModel : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() { at::set_num_threads(1); }

    void chunkedAttentionMatchesReferenceForAnyChunk_data() {
        QTest::addColumn<int>("chunk");
        QTest::newRow("chunk 1") << 1;
        QTest::newRow("chunk 5 (uneven)") << 5;
        QTest::newRow("chunk 8") << 8;
        QTest::newRow("chunk > seq") << 100;
    }

    void chunkedAttentionMatchesReferenceForAnyChunk() {
        QFETCH(int, chunk);
        torch::manual_seed(3);
        auto q = torch::randn({2, 4, 19, 8}, torch::requires_grad());
        auto k = torch::randn({2, 2, 19, 8}, torch::requires_grad());
        auto v = torch::randn({2, 2, 19, 8}, torch::requires_grad());
        auto grad_out = torch::randn({2, 4, 19, 8});

        auto ref = referenceAttention(q, k, v);
        auto ref_grads = torch::autograd::grad({ref}, {q, k, v}, {grad_out});
        auto out = ChunkedAttentionFunction::apply(q, k, v, chunk);
        auto grads = torch::autograd::grad({out}, {q, k, v}, {grad_out});

        QVERIFY2(close(out, ref), qPrintable(QString::number(maxAbsDiff(out, ref))));
        for (int i = 0; i < 3; ++i) {
            QVERIFY2(close(grads[i], ref_grads[i], 1e-4),
                     qPrintable(QString("grad %1 differs by %2")
                                    .arg(i)
                                    .arg(maxAbsDiff(grads[i], ref_grads[i]))));
        }
    }

    void attentionVariantsAgree_data() {
        QTest::addColumn<int>("kind");
        QTest::newRow("sdpa") << int(AttentionKind::Sdpa);
        QTest::newRow("memory-efficient") << int(AttentionKind::MemoryEfficient);
    }

    void attentionVariantsAgree() {
        QFETCH(int, kind);
        const auto c = tinyConfig();
        // seq 80 spans two query blocks of the memory-efficient variant (64 rows each)
        const auto eager = runOnce(c, AttentionKind::Eager, false, 80);
        const auto other = runOnce(c, AttentionKind(kind), false, 80);
        QVERIFY2(close(eager.logits, other.logits),
                 qPrintable(QString::number(maxAbsDiff(eager.logits, other.logits))));
        QVERIFY(std::abs(eager.loss - other.loss) < 1e-5);
        QCOMPARE(eager.grads.size(), other.grads.size());
        for (size_t i = 0; i < eager.grads.size(); ++i) {
            QVERIFY2(close(eager.grads[i], other.grads[i], 1e-4),
                     qPrintable(QString("parameter %1 gradient differs by %2")
                                    .arg(i)
                                    .arg(maxAbsDiff(eager.grads[i], other.grads[i]))));
        }
    }

    void fusedProjectionsComputeAValidModel() {
        const auto fused = runOnce(tinyConfig(), AttentionKind::Fused, false, 16);
        QVERIFY(std::isfinite(fused.loss));
        QCOMPARE(fused.logits.sizes(), (std::vector<int64_t>{2, 16, 61}));
    }

    void checkpointingGivesTheSameGradients() {
        for (auto kind : {AttentionKind::Eager, AttentionKind::MemoryEfficient}) {
            const auto plain = runOnce(tinyConfig(), kind, false, 24);
            const auto ckpt = runOnce(tinyConfig(), kind, true, 24);
            QVERIFY(close(plain.logits, ckpt.logits));
            QCOMPARE(plain.grads.size(), ckpt.grads.size());
            for (size_t i = 0; i < plain.grads.size(); ++i) {
                QVERIFY2(close(plain.grads[i], ckpt.grads[i], 1e-5),
                         qPrintable(QString("parameter %1 differs by %2")
                                        .arg(i)
                                        .arg(maxAbsDiff(plain.grads[i], ckpt.grads[i]))));
            }
        }
    }

    void checkpointingUnderBf16AutocastMatchesPlain() {
        auto run = [](bool checkpoint) {
            compat::setAutocast(c10::DeviceType::CPU, true, at::kBFloat16);
            torch::manual_seed(11);
            TinyLlama model(tinyConfig(), AttentionKind::Eager, checkpoint);
            auto tokens = torch::randint(0, 61, {2, 17});
            auto loss =
                model->loss(model->forward(tokens.narrow(1, 0, 16)), tokens.narrow(1, 1, 16));
            compat::setAutocast(c10::DeviceType::CPU, false, at::kBFloat16);
            loss.backward();
            at::autocast::clear_cache();
            std::vector<torch::Tensor> grads;
            for (const auto& p : model->parameters())
                grads.push_back(p.grad().clone());
            return grads;
        };
        const auto plain = run(false);
        const auto ckpt = run(true);
        for (size_t i = 0; i < plain.size(); ++i) {
            QVERIFY2(close(plain[i], ckpt[i], 1e-6), qPrintable(QString::number(i)));
        }
    }

    void lossFallsOnAFixedBatch() {
        torch::manual_seed(1);
        TinyLlama model(tinyConfig(), AttentionKind::Eager);
        torch::optim::AdamW opt(model->parameters(), torch::optim::AdamWOptions(1e-2));
        auto tokens = torch::randint(0, 61, {4, 17});
        auto inputs = tokens.narrow(1, 0, 16), labels = tokens.narrow(1, 1, 16);
        double first = 0, last = 0;
        for (int i = 0; i < 30; ++i) {
            opt.zero_grad();
            auto loss = model->loss(model->forward(inputs), labels);
            loss.backward();
            opt.step();
            (i == 0 ? first : last) = loss.item<double>();
        }
        QVERIFY2(first > 3.5, qPrintable(QString::number(first)));  // about ln(61) = 4.11
        QVERIFY2(last < 0.5 * first, qPrintable(QString("%1 -> %2").arg(first).arg(last)));
    }

    void forwardOnlyBuildsNoGradients() {
        torch::manual_seed(1);
        TinyLlama model(tinyConfig(), AttentionKind::Eager);
        torch::NoGradGuard no_grad;
        auto tokens = torch::randint(0, 61, {2, 17});
        auto loss = model->loss(model->forward(tokens.narrow(1, 0, 16)), tokens.narrow(1, 1, 16));
        QVERIFY(!loss.requires_grad());
        for (const auto& p : model->parameters()) {
            QVERIFY(!p.grad().defined());
        }
    }

    void moduleScopesAreNamedByPath() {
        std::vector<std::string> names;
        static thread_local std::vector<std::string>* sink = nullptr;
        sink = &names;
        auto handle = at::addThreadLocalCallback(
            at::RecordFunctionCallback([](const at::RecordFunction& fn)
                                           -> std::unique_ptr<at::ObserverContext> {
                sink->emplace_back(fn.name());
                return nullptr;
            }).scopes({at::RecordScope::USER_SCOPE}));
        torch::manual_seed(1);
        TinyLlama model(tinyConfig(), AttentionKind::Eager);
        model->forward(torch::randint(0, 61, {1, 8}));
        at::removeCallback(handle);
        sink = nullptr;
        auto has = [&](const std::string& n) {
            return std::find(names.begin(), names.end(), n) != names.end();
        };
        QVERIFY(has("TinyLlama"));
        QVERIFY(has("TinyLlama.embed_tokens"));
        QVERIFY(has("TinyLlama.blocks.1.attention.q_proj"));
        QVERIFY(has("TinyLlama.blocks.1.attention.core"));
        QVERIFY(has("TinyLlama.blocks.0.feed_forward.down_proj"));
        QVERIFY(has("TinyLlama.blocks.0.ffn_norm"));
        QVERIFY(has("TinyLlama.lm_head"));
    }
};

QTEST_GUILESS_MAIN(TestModel)
#include "test_model.moc"
