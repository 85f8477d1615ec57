"""A small image classifier trained the usual PyTorch way: a Dataset and a shuffled
DataLoader, Conv2d/BatchNorm/ReLU/MaxPool/Dropout/Linear, log_softmax with NLL, Adam with
StepLR, an evaluation loop with accuracy, and a checkpoint saved, loaded and used.

Trained twice from the same initial weights (data/init.pt, see make_cnn_data.py): once with
dropout 0 (dropout masks are random, so only then can two frameworks agree step by step) and
once with dropout 0.25.
"""
import json
import time
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, Dataset

DATA = Path(__file__).resolve().parents[2] / "crates" / "cap-cnn" / "data"
N_TRAIN, N_TEST = 1000, 200
BATCH, EPOCHS, SHUFFLE_SEED = 50, 3, 0
LR, GAMMA = 3e-3, 0.7
DROPOUT = 0.25


# region: data
class Glyphs(Dataset):
    """8×8 images, pixels 0..16, scaled to [0, 1]; glyphs.bin holds all images, then all labels."""

    def __init__(self, start: int, count: int):
        raw = (DATA / "glyphs.bin").read_bytes()
        n = len(raw) // 65
        pixels = torch.frombuffer(bytearray(raw[:n * 64]), dtype=torch.uint8).reshape(n, 1, 8, 8)
        labels = torch.frombuffer(bytearray(raw[n * 64:]), dtype=torch.uint8)
        self.x = pixels[start:start + count].float() / 16.0
        self.y = labels[start:start + count].long()

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def loaders():
    train_set, test_set = Glyphs(0, N_TRAIN), Glyphs(N_TRAIN, N_TEST)
    train_loader = DataLoader(train_set, batch_size=BATCH, shuffle=True,
                              generator=torch.Generator().manual_seed(SHUFFLE_SEED))
    return train_loader, DataLoader(test_set, batch_size=100)
# endregion: data


# region: model
class Net(nn.Module):
    def __init__(self, dropout: float = DROPOUT):
        super().__init__()
        # No bias before a BatchNorm: its mean subtraction cancels it, so its gradient is
        # rounding noise, which Adam turns into steps of size lr.
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(16)
        self.pool = nn.MaxPool2d(2)
        self.dropout = nn.Dropout(dropout)
        self.fc1 = nn.Linear(16 * 2 * 2, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.bn1(self.conv1(x))))  # [B, 8, 4, 4]
        x = self.pool(F.relu(self.bn2(self.conv2(x))))  # [B, 16, 2, 2]
        x = self.dropout(torch.flatten(x, 1))
        x = F.relu(self.fc1(x))
        return F.log_softmax(self.fc2(x), dim=1)
# endregion: model


# region: evaluate
def evaluate(model, loader):
    model.eval()
    loss, correct = 0.0, 0
    with torch.no_grad():
        for x, y in loader:
            out = model(x)
            loss += F.nll_loss(out, y, reduction="sum").item()
            correct += (out.argmax(dim=1) == y).sum().item()
    return loss / len(loader.dataset), correct / len(loader.dataset)
# endregion: evaluate


def fnv1a64(values) -> str:
    h = 0xcbf29ce484222325
    for v in values:
        h = ((h ^ int(v)) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def train(dropout: float, loader, test_loader) -> dict:
    # region: init
    model = Net(dropout)
    model.load_state_dict(torch.load(DATA / "init.pt"))
    # endregion: init
    # region: optim
    optimizer = torch.optim.Adam(model.parameters(), lr=LR)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=GAMMA)
    # endregion: optim
    # region: loop
    losses, epochs, seen, seconds = [], [], [], []
    for epoch in range(EPOCHS):
        t0 = time.perf_counter()
        model.train()
        for x, y in loader:
            optimizer.zero_grad()
            loss = F.nll_loss(model(x), y)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
            seen += y.tolist()
        scheduler.step()
        seconds.append(time.perf_counter() - t0)
        test_loss, accuracy = evaluate(model, test_loader)
        epochs.append({"test_loss": test_loss, "accuracy": accuracy})
    # endregion: loop
    return {"model": model, "losses": losses, "epochs": epochs, "seen": seen,
            "seconds": seconds}


def main():
    torch.manual_seed(1)  # the dropout masks of the second run
    train_loader, test_loader = loaders()
    matched = train(0.0, train_loader, test_loader)
    model = matched["model"]

    # region: checkpoint
    torch.save(model.state_dict(), "cnn.pt")
    restored = Net()
    restored.load_state_dict(torch.load("cnn.pt"))
    restored.eval()
    with torch.no_grad():
        log_probs = torch.cat([restored(x) for x, _ in test_loader])
    predictions = log_probs.argmax(dim=1)
    # endregion: checkpoint

    dropped = train(DROPOUT, *loaders())
    print(json.dumps({
        "config": {"batch": BATCH, "epochs": EPOCHS, "lr": LR, "gamma": GAMMA, "dropout": DROPOUT},
        "batches_fnv": fnv1a64(matched["seen"]),
        "steps": len(matched["losses"]),
        # Per epoch, then per step: the comparison's tolerance grows by epoch.
        "loss": {f"epoch{e + 1}": {f"step{k + 1:02d}": v for k, v in enumerate(matched["losses"])
                                   if k // len(train_loader) == e} for e in range(EPOCHS)},
        "epochs": {f"epoch{k + 1}": e for k, e in enumerate(matched["epochs"])},
        "predictions": predictions.tolist(),
        "predictions_correct": int((predictions == test_loader.dataset.y).sum()),
        "log_probs_first4": log_probs[:4].flatten().tolist(),
        "running_var": {"bn1": model.bn1.running_var.tolist(),
                        "bn2": model.bn2.running_var.tolist()},
        "dropout_run": {"final_train_loss": dropped["losses"][-1],
                        "accuracy": dropped["epochs"][-1]["accuracy"]},
        "seconds": {"epochs": matched["seconds"]},
    }))


if __name__ == "__main__":
    main()
