/** M4: the field editor's description, under every base path. */
export const API_SPECIFICATION_PATH = '/api_specification/openapi_json';
/** The URL the vendor's pages name for it; answers 302 to M4 (the versioning table's "old URL"). */
export const EARLIER_SPECIFICATION_PATH = '/api_specification/swagger_json';
