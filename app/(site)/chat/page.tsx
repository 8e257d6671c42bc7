export default function ChatPage() {
  return <div className="p-8">Chat</div>;
}
