#include "io/column_codec.h"

namespace memscope {

const char* columnEncodingName(ColumnEncoding e) {
    switch (e) {
        case ColumnEncoding::Raw:
            return "raw";
        case ColumnEncoding::Delta:
            return "delta";
        case ColumnEncoding::Varint:
            return "varint";
        case ColumnEncoding::DeltaVarint:
            return "delta_varint";
    }
    return "raw";
}

bool columnEncodingFromName(const std::string& name, ColumnEncoding& out) {
    for (const ColumnEncoding e : {ColumnEncoding::Raw, ColumnEncoding::Delta,
                                   ColumnEncoding::Varint, ColumnEncoding::DeltaVarint}) {
        if (name == columnEncodingName(e)) {
            out = e;
            return true;
        }
    }
    return false;
}

}  // namespace memscope
