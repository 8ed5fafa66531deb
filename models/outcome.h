#pragma once

#include <QMetaType>
#include <QString>

#include <utility>

namespace memscope {

// The GUI's one error convention (issue 42): what an operation that can fail says. Ok, or failed
// with a message ready to show a user (errorText made it from core's error, or tr() wrote it).
// - An operation that can fail returns an Outcome: `if (const Outcome o = page.exportCsv(path);
//   !o) show(o.message());`. No out-parameter, no "last error" member.
// - A result that arrives later (a run's end) carries its Outcome; a loader that keeps what it
//   loaded keeps the Outcome of loading beside it (TorchPartLoader::outcome).
// - A signal that reports a failure passes its message (RunSession::failed).
class Outcome {
  public:
    Outcome() = default;  // ok
    static Outcome failure(QString message) {
        Outcome o;
        o.m_failed = true;
        o.m_message = std::move(message);
        return o;
    }

    // Ok when `message` is empty, else a failure with it.
    static Outcome ofMessage(QString message) {
        return message.isEmpty() ? Outcome() : failure(std::move(message));
    }

    bool ok() const { return !m_failed; }
    explicit operator bool() const { return ok(); }
    // Why it failed; empty when it did not.
    const QString& message() const { return m_message; }

  private:
    bool m_failed = false;
    QString m_message;
};

}  // namespace memscope

Q_DECLARE_METATYPE(memscope::Outcome)
