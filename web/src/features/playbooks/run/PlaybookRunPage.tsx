// Placeholder replaced by the playbooks screens under way.
export default function PlaybookRunPage() {
  return null;
}
