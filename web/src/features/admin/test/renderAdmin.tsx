// Renders one admin page inside a router (the admin menu uses links) with an admin signed in.
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { signInAs } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';

export function renderAdminPage(page: ReactElement) {
  signInAs('admin');
  return renderWithProviders(<MemoryRouter>{page}</MemoryRouter>);
}

/** A page answer as the admin API sends it. */
export function pageOf<T>(items: T[], extra: object = {}) {
  return { items, total: items.length, page: 1, pageSize: 25, ...extra };
}
