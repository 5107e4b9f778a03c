class Net(nn.Module):
    def forward(self, x, flag):
        y = self.features(x)
        if flag:
            return torch.relu(y)
        return -y
