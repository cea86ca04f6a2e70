-- A piece by the code of one of its tokens (issue 31.1, server/gateway/search.ts): a pickup code read out
-- on the phone. Migration 044 looked it up with `doc->'tokens' @> '[{"code": ...}]'` through a GIN index,
-- but neither PGlite nor PostgreSQL can estimate a jsonb containment (a fixed 1 % of the pieces), so with
-- the search's LIMIT both chose to read every piece in turn for the few they expected: 1.6 s at a million
-- pieces for any number typed. This narrow copy of each piece's token codes is an ordinary B-tree whose
-- statistics say one code is one piece or two: the lookup reads those rows only.
DROP INDEX IF EXISTS records_piece_token_codes;

-- One row per piece (records.key of resource 'shipments') and text code of its `tokens`.
CREATE TABLE piece_token_codes (
  code text NOT NULL,
  piece_key text NOT NULL,
  PRIMARY KEY (code, piece_key)
);
CREATE INDEX piece_token_codes_piece ON piece_token_codes (piece_key);

INSERT INTO piece_token_codes (code, piece_key) SELECT DISTINCT t.value->>'code', r.key FROM records r, jsonb_array_elements(CASE WHEN jsonb_typeof(r.doc->'tokens') = 'array' THEN r.doc->'tokens' ELSE '[]'::jsonb END) t WHERE r.resource = 'shipments' AND jsonb_typeof(t.value->'code') = 'string';

-- Kept in the writing transaction by statement-level triggers, as record_counts (004) and the sort keys
-- (007) are: every writer (the write pipeline, opnames, seeds, imports) keeps it, and a rolled-back
-- write leaves it as it was. An update rewrites the codes of the pieces whose tokens changed only. Each
-- function returns at once for a statement that writes no piece. Kept on one line: migrations split on `;` at line ends.
CREATE FUNCTION piece_token_codes_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF NOT EXISTS (SELECT 1 FROM added WHERE resource = 'shipments') THEN RETURN NULL; END IF; INSERT INTO piece_token_codes (code, piece_key) SELECT DISTINCT t.value->>'code', a.key FROM added a, jsonb_array_elements(CASE WHEN jsonb_typeof(a.doc->'tokens') = 'array' THEN a.doc->'tokens' ELSE '[]'::jsonb END) t WHERE a.resource = 'shipments' AND jsonb_typeof(t.value->'code') = 'string' ON CONFLICT DO NOTHING; RETURN NULL; END $$;

CREATE FUNCTION piece_token_codes_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF NOT EXISTS (SELECT 1 FROM removed WHERE resource = 'shipments') THEN RETURN NULL; END IF; DELETE FROM piece_token_codes c USING removed r WHERE r.resource = 'shipments' AND c.piece_key = r.key; RETURN NULL; END $$;

CREATE FUNCTION piece_token_codes_replace() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF NOT EXISTS (SELECT 1 FROM added WHERE resource = 'shipments') AND NOT EXISTS (SELECT 1 FROM removed WHERE resource = 'shipments') THEN RETURN NULL; END IF; DELETE FROM piece_token_codes c USING removed r WHERE r.resource = 'shipments' AND c.piece_key = r.key AND NOT EXISTS (SELECT 1 FROM added a WHERE a.resource = r.resource AND a.key = r.key AND a.doc->'tokens' IS NOT DISTINCT FROM r.doc->'tokens'); INSERT INTO piece_token_codes (code, piece_key) SELECT DISTINCT t.value->>'code', a.key FROM added a, jsonb_array_elements(CASE WHEN jsonb_typeof(a.doc->'tokens') = 'array' THEN a.doc->'tokens' ELSE '[]'::jsonb END) t WHERE a.resource = 'shipments' AND jsonb_typeof(t.value->'code') = 'string' AND NOT EXISTS (SELECT 1 FROM removed r WHERE r.resource = a.resource AND r.key = a.key AND r.doc->'tokens' IS NOT DISTINCT FROM a.doc->'tokens') ON CONFLICT DO NOTHING; RETURN NULL; END $$;

CREATE FUNCTION piece_token_codes_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN TRUNCATE piece_token_codes; RETURN NULL; END $$;

CREATE TRIGGER records_piece_token_codes_insert AFTER INSERT ON records
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION piece_token_codes_add();
CREATE TRIGGER records_piece_token_codes_delete AFTER DELETE ON records
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION piece_token_codes_remove();
CREATE TRIGGER records_piece_token_codes_update AFTER UPDATE ON records
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION piece_token_codes_replace();
CREATE TRIGGER records_piece_token_codes_truncate AFTER TRUNCATE ON records
  FOR EACH STATEMENT EXECUTE FUNCTION piece_token_codes_clear();
