#pragma once

#include <QRectF>
#include <QString>
#include <QWidget>

#include <memory>
#include <vector>

namespace memscope {

class StackTree;

// An icicle (top-down flame graph) of a StackTree: the root on top, each frame a box as wide as
// its share of the bytes, its callees below it. Colours by the frame's dominant category or by
// its module; for a difference tree (StackDiff) red boxes grew and blue boxes shrank, the
// stronger the more of the box's width is net change. Hovering highlights a frame and its
// tooltip gives its text, bytes, share of the total and count; clicking a frame zooms into it
// (it takes the whole width, its ancestors stay above it) and emits frameClicked; clicking an
// ancestor or the root zooms back out.
class FlameGraphView : public QWidget {
    Q_OBJECT

  public:
    enum class Mode { Bytes, Difference };
    enum class ColorBy { Category, Module };

    explicit FlameGraphView(QWidget* parent = nullptr);
    ~FlameGraphView() override;

    void setTree(std::shared_ptr<const StackTree> tree, Mode mode = Mode::Bytes);
    const StackTree* tree() const { return m_tree.get(); }
    Mode mode() const { return m_mode; }
    void setColorBy(ColorBy by);
    ColorBy colorBy() const { return m_colorBy; }
    void setPlaceholderText(const QString& text);

    int zoomedNode() const { return m_zoom; }
    int hoveredNode() const { return m_hover; }
    // The frame drawn at a point, or -1; the box of a node (empty when not drawn).
    int nodeAt(const QPointF& pos) const;
    QRectF boxOf(int node) const;
    QString toolTipFor(int node) const;
    static constexpr int kRowHeight = 20;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

  public slots:
    void zoomTo(int node);  // 0: the whole tree

  signals:
    void frameClicked(int node);

  protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

  private:
    struct Box {
        int node = 0;
        QRectF rect;
    };
    void layoutBoxes() const;
    void layoutChildren(int node, double x, double scale) const;
    QColor fillOf(int node) const;

    std::shared_ptr<const StackTree> m_tree;
    Mode m_mode = Mode::Bytes;
    ColorBy m_colorBy = ColorBy::Category;
    QString m_placeholder;
    int m_zoom = 0;
    int m_hover = -1;
    mutable std::vector<Box> m_boxes;
    mutable std::vector<int> m_boxOfNode;  // node -> index in m_boxes, -1
    mutable bool m_dirty = true;
    mutable QSize m_layoutSize;  // the size the boxes were laid out for
};

}  // namespace memscope
