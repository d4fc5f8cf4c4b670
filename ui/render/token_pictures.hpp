#pragma once
// The pictures of a vision transformer's patch tokens (docs/window.md): for a layer that attends
// over a model file's image, token t >= prefix is a patch of the image, and the head view and
// the text view (ui/tokens) draw that patch beside its label ("r2c3"), the cell breakdown
// (ui/teach) beside the query and the key it explains; the prefix tokens ([CLS], registers) and
// the bias_k / zero keys keep their text alone. One list of pictures per result and batch
// element (tokenPictures), made once and painted by both token views, in the window and in their
// exports. Any thread (QImage, no widgets).

#include <QImage>
#include <QRectF>
#include <cstdint>
#include <vector>

#include "mhaviz/core/forward/result.hpp"
#include "mhaviz/core/model/image_grid.hpp"

class QPainter;

namespace mhaviz::ui {

/// Per token (a query row i is token i, a source key column j is token j), the picture drawn
/// beside its label; a null image where there is none. Empty: no token has one.
using TokenPictureList = std::vector<QImage>;

/// The picture of token `token` in batch element `batch` of `pictures`: token t >= prefix is the
/// patch of row (t − prefix) / cols, column (t − prefix) % cols, its pixels as the Image view's
/// nearest upsampling gives them (model::patch_pixels), enlarged without smoothing so that the
/// patch's own pixels stay visible at the size a view draws it. Null for a prefix token, a token
/// past the patches or a batch element the image does not have.
QImage patchPicture(const mhaviz::model::PatchPictures& pictures, int batch, std::int64_t token);

/// The pictures of `result`'s tokens in batch element `batch` (patchPicture), from `pictures`
/// (null: none). Empty when there are no pictures, the image has no such batch element, or the
/// result's queries and source keys are not the image's tokens (L = S = prefix + rows × cols).
/// The views that call it draw at most a few hundred tokens (the token views refuse more).
TokenPictureList tokenPictures(const mhaviz::model::PatchPictures* pictures,
                               const mhaviz::ForwardResult& result, int batch);

/// Whether `pictures` are of `result`'s tokens (L = S = prefix + rows × cols) and have batch
/// element `batch`: what tokenPictures checks before it cuts any.
bool picturesFit(const mhaviz::model::PatchPictures* pictures, const mhaviz::ForwardResult& result,
                 int batch);

/// The picture of token `token` in `pictures`, null when it has none.
QImage tokenPicture(const TokenPictureList& pictures, int token);

/// True when some token of `pictures` has a picture.
bool hasTokenPictures(const TokenPictureList& pictures);

/// Draws `picture` centred in `box`, as large as fits with its proportions, framed thinly in
/// `frame`: the pixels of the patch as squares (smoothed only where a device draws it smaller
/// than it was enlarged).
void paintTokenPicture(QPainter& painter, const QRectF& box, const QImage& picture,
                       const QColor& frame);

}  // namespace mhaviz::ui
