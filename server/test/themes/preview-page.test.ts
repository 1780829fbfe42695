import { describe, expect, it } from 'vitest';
import { previewPage } from '../../src/api/themes/static-routes.js';
import { nextTimestamp } from '../../src/api/themes/theme.js';

const FOLDER = 'http://localhost:4000/static/themes/1/preview/abc/';
const BASE = `<base href="${FOLDER}">`;

describe('previewPage', () => {
  it('puts <base> first in the head, whatever the head’s attributes and case', () => {
    expect(previewPage('<!doctype html><html><head><title>x</title></head></html>', FOLDER)).toBe(
      `<!doctype html><html><head>${BASE}<title>x</title></head></html>`,
    );
    expect(previewPage('<HTML><HEAD lang="en"><link href="a.css"></HEAD>', FOLDER)).toBe(
      `<HTML><HEAD lang="en">${BASE}<link href="a.css"></HEAD>`,
    );
  });

  it('does not take <header> for <head>', () => {
    expect(previewPage('<!DOCTYPE html><header>top</header>', FOLDER)).toBe(
      `<!DOCTYPE html>${BASE}<header>top</header>`,
    );
  });

  it('goes after the doctype, or first, in a document without a head', () => {
    expect(previewPage('  <!doctype html>\n<p>hi</p>', FOLDER)).toBe(`  <!doctype html>${BASE}\n<p>hi</p>`);
    expect(previewPage('<p>hi</p>', FOLDER)).toBe(`${BASE}<p>hi</p>`);
  });

  it('escapes the folder for the attribute', () => {
    expect(previewPage('<p>', 'http://x/"><script>')).toBe('<base href="http://x/&quot;&gt;&lt;script&gt;"><p>');
  });
});

describe('nextTimestamp', () => {
  it('is now, or a millisecond after the previous stamp when the clock has not moved past it', () => {
    const now = Date.UTC(2026, 10, 21, 9, 30, 12, 345);
    expect(nextTimestamp(undefined, now)).toBe('2026-11-21T09:30:12.345Z');
    expect(nextTimestamp('2026-11-21T09:00:00.000Z', now)).toBe('2026-11-21T09:30:12.345Z');
    expect(nextTimestamp('2026-11-21T09:30:12.345Z', now)).toBe('2026-11-21T09:30:12.346Z');
    expect(nextTimestamp('2026-11-21T10:00:00.000Z', now)).toBe('2026-11-21T10:00:00.001Z');
  });
});
