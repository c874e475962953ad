import { QueryClient } from "@tanstack/react-query";

/** The app's query client defaults. One per browser tab (see components/providers.tsx). */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 10_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
