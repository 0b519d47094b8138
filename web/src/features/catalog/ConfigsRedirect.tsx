// /configs → /catalog (spec/2 §2.1), keeping the query string.
import { Navigate, useLocation } from 'react-router';

export default function ConfigsRedirect() {
  const { search } = useLocation();
  return <Navigate to={`/catalog${search}`} replace />;
}
