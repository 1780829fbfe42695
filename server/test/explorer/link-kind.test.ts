/**
 * Which links the explorer follows in its page (HAL resources) and which it opens in a new tab (pages and files):
 * the root's `service-desc`, an OpenAPI document of a JSON media type, is a file, not a resource.
 */
import { Link } from '@storefront-platform/sdk';
import { expect, it } from 'vitest';
import { isResourceLink } from '../../src/explorer/page/link-controls.js';
import { OPENAPI_MEDIA_TYPE } from '../../src/openapi/media-type.js';

const link = (type?: string) =>
  new Link('x', { href: '/v1/x', ...(type === undefined ? {} : { type }) }, 'http://api.test/');

it('follows untyped, HAL and JSON links in the page, and opens the OpenAPI document and pages in a new tab', () => {
  for (const type of [undefined, 'application/hal+json', 'application/json', 'Application/JSON; charset=utf-8']) {
    expect(isResourceLink(link(type)), String(type)).toBe(true);
  }
  for (const type of [OPENAPI_MEDIA_TYPE, 'text/html', 'image/png', 'application/jsonp']) {
    expect(isResourceLink(link(type)), type).toBe(false);
  }
});
