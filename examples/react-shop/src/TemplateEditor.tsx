/**
 * The shop's production theme's templates, one edited at a time. Saving is a PUT guarded by `If-Match`: when someone
 * else changed the template since it was opened, the server answers 412 and the editor shows the conflict instead of
 * overwriting their change.
 */
import { useAction, useFollow, useResource } from '@storefront-platform/react';
import { PreconditionFailedError, type Shop, type Template, ValidationError } from '@storefront-platform/sdk';
import { useState } from 'react';
import { ErrorNote } from './ErrorNote.js';

export function TemplateEditor({ shop }: { shop: Shop }) {
  const theme = useFollow(shop, 'svc:theme');
  const [fileName, setFileName] = useState<string>();
  if (theme.error) return <ErrorNote error={theme.error} />;
  if (!theme.data) return <p role="status">Loading…</p>;
  const templates = theme.data.embedded('templates');
  const chosen = templates.find((t) => t.properties.file_name === fileName) ?? templates[0];
  return (
    <section className="templates" aria-label="Templates">
      <h1>{theme.data.properties.title}</h1>
      <ul>
        {templates.map((t) => (
          <li key={t.properties.id}>
            <button type="button" aria-pressed={t === chosen} onClick={() => setFileName(t.properties.file_name)}>
              {t.properties.file_name}
            </button>
          </li>
        ))}
      </ul>
      {chosen && <Editor key={chosen.properties.id} summary={chosen} />}
    </section>
  );
}

function Editor({ summary }: { summary: Template }) {
  // The template read in detail from its self: its response carries the ETag the save is guarded with.
  const template = useResource(summary);
  const save = useAction(template.data, 'svc:update_template', { ifMatch: true });
  const [draft, setDraft] = useState<string>();
  if (template.error) return <ErrorNote error={template.error} />;
  if (!template.data) return <p role="status">Loading…</p>;
  const { body, file_name: name, updated_on: updatedOn } = template.data.properties;
  const text = draft ?? body;
  const conflict = save.error instanceof PreconditionFailedError;
  return (
    <form
      className="editor"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate({ body: text }, { onSuccess: () => setDraft(undefined) });
      }}
    >
      <label htmlFor="template-body">{name}</label>
      <textarea id="template-body" value={text} onChange={(event) => setDraft(event.target.value)} rows={10} />
      <p className="meta">
        Last saved <time id="updated-on">{updatedOn}</time>
      </p>
      <button type="submit" disabled={save.isPending || draft === undefined}>
        {save.isPending ? 'Saving…' : 'Save template'}
      </button>
      {save.isSuccess && draft === undefined && (
        <p role="status" id="save-status">
          Saved.
        </p>
      )}
      {conflict && (
        <div role="alert" className="conflict">
          <p>Someone changed this template since you opened it: saving would overwrite their change.</p>
          <button
            type="button"
            onClick={() => {
              // Theirs replaces the draft; the app could merge here instead.
              setDraft(undefined);
              save.reset();
              void template.refetch();
            }}
          >
            Load their version
          </button>
        </div>
      )}
      {save.error instanceof ValidationError && (
        <p role="alert" className="error">
          {save.error.errors.map((e) => `${e.field}: ${e.messages.join(', ')}`).join('; ')}
        </p>
      )}
      {save.error && !conflict && !(save.error instanceof ValidationError) && <ErrorNote error={save.error} />}
    </form>
  );
}
