// Placeholder replaced by the playbooks screens under way.
export default function PlaybookEditPage() {
  return null;
}
