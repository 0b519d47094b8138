// The users API (docs/auth-api.md "Users").
import { api } from '../../../api/client';

export interface User {
  id: string;
  name: string;
  email: string;
  roles: string[];
  state: 'active' | 'inactive';
  created_at: string;
  traits: { name: { first: string; last: string }; email: string };
}

export interface UserInput {
  firstName: string;
  lastName: string;
  email: string;
  role: string;
}

export const usersApi = {
  list: (page: { pageIndex: number; pageSize: number }, signal?: AbortSignal) =>
    api.get<{ data: User[]; total: number }>('/api/users', {
      query: { limit: page.pageSize, offset: page.pageIndex * page.pageSize },
      signal,
    }),
  invite: (input: UserInput) => api.post<{ id: string; link: string; emailed: boolean }>('/api/users/invite', input),
  update: (id: string, input: Partial<UserInput> & { state?: User['state'] }) =>
    api.patch<{ user: User }>(`/api/users/${encodeURIComponent(id)}`, input),
  remove: (id: string) => api.delete(`/api/users/${encodeURIComponent(id)}`),
};
