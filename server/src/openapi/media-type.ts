/**
 * The media type the OpenAPI Initiative registered for its JSON documents, with the version they follow: the
 * document is served as it, and the root's `service-desc` link announces it (without loading the document's
 * module, which loads on the document's first request).
 */
export const OPENAPI_MEDIA_TYPE = 'application/vnd.oai.openapi+json;version=3.1';
