// Objects of a map's object layers as both readers count and place them.
#include "layer_scope.hpp"

namespace sweep::io::detail {

Result<void> count_object(LayerScope& scope) {
    if (++scope.objects > k_max_objects) {
        return make_error(ErrorCode::limit_exceeded,
                          scope.file + ": more than " + std::to_string(k_max_objects) + " objects");
    }
    return {};
}

std::optional<PlacedObject> place_object(ObjectSource object, LayerScope& scope,
                                         const std::string& where) {
    PlacedObject placed;
    if (!object.template_source.empty()) {
        auto tx =
            scope.external.template_file(scope.file, object.template_source, scope.map.warnings);
        if (!tx) {
            scope.map.warnings.push_back(where + ": " + object.label + ": template " +
                                         in_quotes(object.template_source) + ": " +
                                         tx.error().message + "; object skipped");
            return std::nullopt;
        }
        const std::shared_ptr<const TemplateSource>& base = *tx;
        if (!object.gid && base->object.gid) {
            placed.scope = &base->tilesets;
        }
        object = merge_template(object, base->object);
        scope.map.templates.push_back(base);
    }
    if (!object.kind) {
        object.kind = object.gid ? ObjectKind::tile : ObjectKind::rectangle;
    }
    placed.object = std::move(object);
    return placed;
}

} // namespace sweep::io::detail
