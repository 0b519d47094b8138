-- Status pages (StatusPage resources, opsdeck.dev/v1): a public (or sign-in only) page per slug
-- listing checks and components by section. The slug is the resource's metadata.name; the spec is
-- the resource's spec as applied; private mirrors spec.private for the public routes' lookup.

CREATE TABLE status_pages (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  slug        text NOT NULL CHECK (slug ~ '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$'),
  spec        jsonb NOT NULL,
  private     boolean NOT NULL DEFAULT false,
  source      text DEFAULT 'UI',
  created_by  uuid REFERENCES people (id),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz
);
CREATE UNIQUE INDEX status_pages_slug_key ON status_pages (slug) WHERE deleted_at IS NULL;
