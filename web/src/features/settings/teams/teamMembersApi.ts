// Team members through /api/db (spec/1 §7 teams rows, spec/3 §7 "Team members"): the members of a
// team with their person embedded, adding several people at once, removing one person from this
// team only, and everyone who could be added.
import { db } from '../../../api/postgrest';

export interface Person {
  id: string;
  name: string;
  email?: string | null;
  avatar?: string | null;
}

/** A team_members row as `select=*,person_id(*)` returns it: the person embedded in place of its id. */
export interface TeamMemberRow {
  team_id: string;
  person_id: Person | null;
}

export const teamMembersApi = {
  /** GET /team_members?team_id=eq.{id}&select=*,person_id(*) */
  async list(teamId: string, signal?: AbortSignal): Promise<TeamMemberRow[]> {
    return (await db<TeamMemberRow>('team_members').select('*,person_id(*)').eq('team_id', teamId).list(signal)).data;
  },
  /** POST /team_members with an array of {team_id, person_id}. */
  add(teamId: string, personIds: readonly string[]) {
    return db('team_members').insert(personIds.map((personId) => ({ team_id: teamId, person_id: personId })));
  },
  /** DELETE /team_members?team_id=eq.{team}&person_id=eq.{person}: this team's membership only. */
  remove(teamId: string, personId: string) {
    return db('team_members').eq('team_id', teamId).eq('person_id', personId).delete();
  },
  /** GET /people?deleted_at=is.null&select=id,name,email&order=name.asc */
  async people(signal?: AbortSignal): Promise<Person[]> {
    return (await db<Person>('people').is('deleted_at', null).select('id,name,email').order('name').list(signal)).data;
  },
};
