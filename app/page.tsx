export default function HomePage() {
  return (
    <main className="home">
      <h1>Cuepoint</h1>
      <p className="tagline">Share music and video with your community, and talk about the exact moments in them — live.</p>
    </main>
  );
}
