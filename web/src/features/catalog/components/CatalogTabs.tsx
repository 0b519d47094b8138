// The catalog's section tabs (spec/2 §2.1): Catalog, Changes, Insights and Scrapers, as links.
import { NavLink } from 'react-router';
import { cn } from '../../../ui/cn';

const SECTIONS = [
  { to: '/catalog', label: 'Catalog', end: true },
  { to: '/catalog/changes', label: 'Changes', end: true },
  { to: '/catalog/insights', label: 'Insights', end: true },
  { to: '/catalog/scrapers', label: 'Scrapers', end: false },
] as const;

export function CatalogTabs() {
  return (
    <nav aria-label="Catalog sections" className="flex gap-1 border-b border-border" data-testid="catalog-tabs">
      {SECTIONS.map((s) => (
        <NavLink
          key={s.to}
          to={s.to}
          end={s.end}
          className={({ isActive }) =>
            cn(
              '-mb-px border-b-2 px-3 py-2 text-[13px] font-medium transition-colors',
              isActive ? 'border-primary text-foreground' : 'border-transparent text-muted hover:text-foreground',
            )
          }
        >
          {s.label}
        </NavLink>
      ))}
    </nav>
  );
}
