"""A CNN image classifier (CIFAR-10-like), written the way most tutorials write it: torchvision
style transforms left out, a folder of tensors, BatchNorm, max-pooling, SGD with momentum and
weight decay, a step scheduler, accuracy from argmax."""
import argparse
import json

import torch
from torch import nn, optim
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, random_split

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=20)
parser.add_argument("--lr", type=float, default=0.05)
args = parser.parse_args()


class TensorFolder(Dataset):
    def __init__(self, path):
        blob = torch.load(path)
        self.images = blob["images"].float() / 255.0
        self.labels = blob["labels"].long()

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.images[i], self.labels[i]


class Net(nn.Module):
    def __init__(self, num_classes=10):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(3, 32, kernel_size=3, padding=1)
        self.bn1 = nn.BatchNorm2d(32)
        self.conv2 = nn.Conv2d(32, 64, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(64)
        self.conv3 = nn.Conv2d(64, 128, 3, stride=2, padding=1)
        self.pool = nn.MaxPool2d(2, 2)
        self.gap = nn.AdaptiveAvgPool2d((1, 1))
        self.dropout = nn.Dropout(p=0.25)
        self.fc = nn.Linear(128, num_classes)

    def forward(self, x):
        x = self.pool(F.relu(self.bn1(self.conv1(x))))
        x = self.pool(F.relu(self.bn2(self.conv2(x))))
        x = F.relu(self.conv3(x))
        x = self.gap(x)
        x = torch.flatten(x, 1)
        return self.fc(self.dropout(x))


full = TensorFolder("cifar_train.pt")
train_set, val_set = random_split(full, [45000, 5000],
                                  generator=torch.Generator().manual_seed(0))
train_loader = DataLoader(train_set, batch_size=128, shuffle=True, num_workers=4,
                          drop_last=True)
val_loader = DataLoader(val_set, batch_size=256)

model = Net()
for m in model.modules():
    if isinstance(m, nn.Conv2d):
        nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
optimizer = optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4)
scheduler = optim.lr_scheduler.StepLR(optimizer, step_size=10, gamma=0.1)

history = []
for epoch in range(args.epochs):
    model.train()
    running = 0.0
    for images, labels in train_loader:
        optimizer.zero_grad()
        outputs = model(images)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        running += loss.item()
    scheduler.step()

    model.eval()
    correct = total = 0
    with torch.no_grad():
        for images, labels in val_loader:
            preds = model(images).argmax(dim=1)
            correct += (preds == labels).sum().item()
            total += labels.size(0)
    history.append({"epoch": epoch, "loss": running / len(train_loader),
                    "acc": correct / total})
    print(json.dumps(history[-1]))

torch.save(model.state_dict(), "cnn.pt")
