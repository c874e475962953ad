import { HomePage } from "@/components/home";

export default function Page() {
  return <HomePage />;
}
