-- Each edge instant's edges as two values (issue 20): a summary range reads its three or four
-- instants as that many rows instead of 10,000 rows each joined on check_id (at 10,000 checks the
-- joined rows took 38–49 ms to arrive, the packs 10–14 ms). A pack is every check's edge at the
-- instant in check_id order: `heads`, 64 bytes per check (its uuid, then total, passed, failed,
-- duration_sum, last_pass and last_fail as int8, the times in milliseconds since the epoch, -1 for
-- none), and `sketches`, each check's sketch in the same order (its length as int4, then its bytes).
-- A range reads the sketches of its two ends only (server/src/health/edgePacks.ts). The edge job
-- rebuilds an instant's pack in the transaction that writes its rows (server/src/health/edges.ts),
-- so a pack and its rows always agree; a deleted check's entries stay in the packs written before
-- (the summary joins figures with the live checks) until their instants are pruned.
CREATE TABLE check_sketch_edge_packs (
  at       timestamptz PRIMARY KEY REFERENCES check_sketch_edge_times (at) ON DELETE CASCADE,
  heads    bytea NOT NULL,
  sketches bytea NOT NULL
);
-- Stored as they are: sketches hardly compress, and every read would pay for the decompression.
ALTER TABLE check_sketch_edge_packs ALTER COLUMN heads SET STORAGE EXTERNAL;
ALTER TABLE check_sketch_edge_packs ALTER COLUMN sketches SET STORAGE EXTERNAL;

CREATE FUNCTION check_sketch_edge_pack(p_at timestamptz, OUT heads bytea, OUT sketches bytea)
LANGUAGE sql STABLE AS $$
  SELECT coalesce(string_agg(uuid_send(check_id) || int8send(total) || int8send(passed) || int8send(failed)
           || int8send(duration_sum)
           || int8send(coalesce(floor(extract(epoch FROM last_pass) * 1000)::int8, -1))
           || int8send(coalesce(floor(extract(epoch FROM last_fail) * 1000)::int8, -1)), ''::bytea ORDER BY check_id), ''::bytea),
         coalesce(string_agg(int4send(octet_length(sketch)) || sketch, ''::bytea ORDER BY check_id), ''::bytea)
  FROM check_sketch_edges WHERE at = p_at
$$;

INSERT INTO check_sketch_edge_packs (at, heads, sketches)
SELECT t.at, p.heads, p.sketches FROM check_sketch_edge_times t, check_sketch_edge_pack(t.at) p;
